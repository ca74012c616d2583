import { Type, type Static } from '@sinclair/typebox'
import { DELIVERY_MECHANISMS } from './constants'
import { Nullable } from './lib/nullable'

/**
 * The outcome of a delivery, internal to a provider; it decides the HTTP response (spec, "Delivery result").
 * `reference` is `s3://<bucket>/<key>` for object delivery; `statusCode` is the webhook target's status,
 * recorded and never checked.
 */
export const DeliveryResultSchema = Type.Object(
  {
    mechanism: Type.Union(DELIVERY_MECHANISMS.map((m) => Type.Literal(m))),
    reference: Nullable(Type.String()),
    statusCode: Nullable(Type.Integer()),
  },
  { additionalProperties: false, title: 'DeliveryResult' },
)
export type DeliveryResult = Static<typeof DeliveryResultSchema>
