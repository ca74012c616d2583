import { Type } from '@sinclair/typebox'
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from './constants'
import { createValidator } from './create-validator'
import type { ValidationResult } from './validation-result'
import { WebhookEnvelopeSchema, type WebhookEvent } from './webhook-envelope'
import { WEBHOOK_EVENT_DATA_SCHEMAS } from './webhook-events'
import { validateWebhookEnvelope } from './validators'

// One full-event validator per kind, so error paths read `data.tokenCost`, like the envelope's own.
const eventValidators = Object.fromEntries(
  WEBHOOK_EVENT_KINDS.map((kind) => [
    kind,
    createValidator(
      Type.Object(
        {
          ...WebhookEnvelopeSchema.properties,
          event: Type.Literal(kind),
          data: WEBHOOK_EVENT_DATA_SCHEMAS[kind],
        },
        { additionalProperties: true },
      ),
    ),
  ]),
) as Record<WebhookEventKind, (value: unknown) => ValidationResult<WebhookEvent>>

/** True for the five kinds the spec defines. */
export function isKnownEventKind(kind: unknown): kind is WebhookEventKind {
  return typeof kind === 'string' && (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind)
}

/**
 * Validates an envelope and, for a known kind, its `data`. An unknown kind is an error here; receivers that
 * must acknowledge unknown kinds check `validateWebhookEnvelope` and `isKnownEventKind` first.
 *
 * @example
 * const result = validateWebhookEvent(job.data)
 * if (result.ok && result.value.event === 'purchase.failed') result.value.data.required
 */
export function validateWebhookEvent(value: unknown): ValidationResult<WebhookEvent> {
  // A known kind's validator checks the envelope too: a valid event is checked once. Anything else takes the
  // envelope's check first, so that the error reads as before.
  const kind = typeof value === 'object' && value !== null ? (value as { event?: unknown }).event : undefined
  if (isKnownEventKind(kind)) {
    const checked = eventValidators[kind](value)
    if (checked.ok) return checked
  }
  const envelope = validateWebhookEnvelope(value)
  if (!envelope.ok) return envelope
  const { event } = envelope.value
  if (!isKnownEventKind(event)) return { ok: false, error: `unknown event kind "${event}"` }
  return eventValidators[event](value)
}
