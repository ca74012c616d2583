import { Type, type Static } from '@sinclair/typebox'
import { Maybe } from './lib/nullable'

/**
 * How results are delivered. `mechanism` is any value on the wire: null, absent or anything but the two names
 * (a number included) means inline (see `resolveDeliveryMechanism`).
 */
export const DeliverySpecSchema = Type.Object(
  {
    mechanism: Type.Optional(Type.Unknown()),
    url: Maybe(Type.String()),
    s3Bucket: Maybe(Type.String()),
    s3KeyPrefix: Maybe(Type.String()),
  },
  { additionalProperties: true, title: 'DeliverySpec' },
)
export type DeliverySpec = Static<typeof DeliverySpecSchema>

/** The body a provider receives on a search endpoint (spec, "Query envelope"). */
export const QueryEnvelopeSchema = Type.Object(
  {
    queryId: Type.String({ minLength: 1 }),
    datasetId: Maybe(Type.String()),
    endpoint: Maybe(Type.String()),
    parameters: Maybe(Type.Record(Type.String(), Type.Unknown())),
    delivery: Maybe(DeliverySpecSchema),
    callbackUrl: Type.String({ minLength: 1, format: 'uri' }),
    callbackToken: Maybe(Type.String()),
  },
  { additionalProperties: true, title: 'QueryEnvelope' },
)
export type QueryEnvelope = Static<typeof QueryEnvelopeSchema>
