import { isKnownEventKind, validateWebhookEnvelope, type WebhookEnvelope } from '@pf/schemas'
import { InvalidEnvelopeError } from '../errors'
import type { AcceptOutcome, EventStore } from './event-store'

/** What became of a verified event: stored now, recognised as a redelivery, or of a kind we do not know. */
export type ReceiveOutcome = AcceptOutcome | 'ignored'

/**
 * The receiver's decisions for a body whose signature was verified: it must be a webhook envelope (else
 * `InvalidEnvelopeError`); a kind we do not know is ignored (spec, receiver rule 4); a known one is stored,
 * deduplicated by `webhookId` (rule 3). Resolves only once the store has it: the 200 follows.
 */
export async function receiveEvent(
  body: unknown,
  store: EventStore,
): Promise<{ outcome: ReceiveOutcome; envelope: WebhookEnvelope }> {
  const checked = validateWebhookEnvelope(body)
  if (!checked.ok) throw new InvalidEnvelopeError(`not a webhook envelope: ${checked.error}`)
  const envelope = checked.value
  if (!isKnownEventKind(envelope.event)) return { outcome: 'ignored', envelope }
  return { outcome: await store.accept(envelope), envelope }
}
