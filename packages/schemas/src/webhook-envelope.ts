import { Type, type Static } from '@sinclair/typebox'
import { WEBHOOK_ID_MAX_LENGTH, WEBHOOK_ID_PREFIX, type WebhookEventKind } from './constants'
import type { WebhookEventDataMap } from './webhook-events'

/**
 * Every webhook has this envelope (spec, "Webhook envelope"). `event` is any string here: unknown kinds are
 * valid envelopes that a receiver acknowledges and ignores.
 */
export const WebhookEnvelopeSchema = Type.Object(
  {
    event: Type.String({ minLength: 1 }),
    timestamp: Type.String({ format: 'date-time' }),
    webhookId: Type.String({ pattern: `^${WEBHOOK_ID_PREFIX}.+`, maxLength: WEBHOOK_ID_MAX_LENGTH }),
    data: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: true, title: 'WebhookEnvelope' },
)
export type WebhookEnvelope = Static<typeof WebhookEnvelopeSchema>

/** A verified envelope of one known kind, with that kind's typed data. */
export type WebhookEvent<K extends WebhookEventKind = WebhookEventKind> = {
  [Kind in K]: Omit<WebhookEnvelope, 'event' | 'data'> & { event: Kind; data: WebhookEventDataMap[Kind] }
}[K]
