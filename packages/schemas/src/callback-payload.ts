import { Type, type Static } from '@sinclair/typebox'
import { CALLBACK_STATUSES } from './constants'

/** The status callback a provider posts to `callbackUrl` (spec, "Callback payload"). */
export const CallbackPayloadSchema = Type.Object(
  {
    queryId: Type.String(),
    status: Type.Union(CALLBACK_STATUSES.map((s) => Type.Literal(s))),
    recordCount: Type.Integer({ minimum: 0 }),
    executionTimeMs: Type.Integer({ minimum: 0 }),
    delivery: Type.Optional(Type.Object({ mechanism: Type.String() }, { additionalProperties: true })),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: true, title: 'CallbackPayload' },
)
export type CallbackPayload = Static<typeof CallbackPayloadSchema>
