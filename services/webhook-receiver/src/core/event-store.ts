import type { WebhookEnvelope } from '@pf/schemas'

/** What accepting an event did: stored it now, or recognised its `webhookId` from an earlier delivery. */
export type AcceptOutcome = 'accepted' | 'duplicate'

/** Where the receiver puts verified events. The real one is BullMQ on Redis (`createBullmqEventStore`). */
export interface EventStore {
  /**
   * Resolves once the event is durably stored (or known); rejects with `StoreUnavailableError`. `json` is the
   * verified text of `event`, stored as it came.
   */
  accept(event: WebhookEnvelope, json: string): Promise<AcceptOutcome>
  /** Resolves when Redis answers. */
  ping(): Promise<void>
  /** Jobs per state, for the queue-depth gauge. */
  counts(): Promise<Record<string, number>>
  close(): Promise<void>
}
