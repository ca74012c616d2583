import {
  isKnownEventKind,
  validateWebhookEnvelope,
  validateWebhookEvent,
  type WebhookEnvelope,
} from '@pf/schemas'
import { InvalidJsonError } from '@pf/signing'
import { InvalidEnvelopeError } from '../errors'
import type { AcceptOutcome, EventStore } from './event-store'
import { jsonNesting } from './json-nesting'

/** What became of a verified event: stored now, recognised as a redelivery, or of a kind we do not know. */
export type ReceiveOutcome = AcceptOutcome | 'ignored'

/** Deepest nesting of objects and arrays accepted in an envelope; the spec's events nest two levels. */
export const MAX_ENVELOPE_NESTING = 32

const UTF8_BOM = '\uFEFF'

/**
 * The receiver's decisions for a body whose signature was verified (spec, receiver rules). It must be JSON
 * nested at most `MAX_ENVELOPE_NESTING` deep and a webhook envelope, else `InvalidEnvelopeError` (400); a kind
 * we do not know is acknowledged and ignored (rule 4); a known kind must carry that kind's `data` (400 before
 * the 200, so the platform's own retries and alerts see a malformed event rather than a silent dead letter),
 * and is stored with the verified text as it came, deduplicated by `webhookId` (rule 3). Resolves only once
 * the store has it: the 200 follows.
 */
export async function receiveEvent(
  raw: Uint8Array,
  store: EventStore,
): Promise<{ outcome: ReceiveOutcome; envelope: WebhookEnvelope }> {
  if (jsonNesting(raw, MAX_ENVELOPE_NESTING) > MAX_ENVELOPE_NESTING)
    throw new InvalidEnvelopeError(`webhook envelope nests deeper than ${MAX_ENVELOPE_NESTING} levels`)
  let text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')
  if (text.startsWith(UTF8_BOM)) text = text.slice(1)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new InvalidJsonError('request body is not valid JSON')
  }
  const kind = (body as { event?: unknown } | null)?.event
  const known = isKnownEventKind(kind)
  const checked = known ? validateWebhookEvent(body) : validateWebhookEnvelope(body)
  if (!checked.ok)
    throw new InvalidEnvelopeError(
      known ? `invalid ${kind} event: ${checked.error}` : `not a webhook envelope: ${checked.error}`,
    )
  const envelope = checked.value as WebhookEnvelope
  if (!known) return { outcome: 'ignored', envelope }
  return { outcome: await store.accept(envelope, text), envelope }
}
