import type { WebhookEnvelope } from '@pf/schemas'

/** What accepting an event did: stored it now, or recognised its `webhookId` from an earlier delivery. */
export type AcceptOutcome = 'accepted' | 'duplicate'

/** Why a verified event was kept from the handlers (service contract, third wave). */
export type QuarantineReason = 'invalid_data' | 'stale' | 'future'

/** What quarantining an event did: stored it now, or recognised its `webhookId` from an earlier delivery. */
export type QuarantineOutcome = 'quarantined' | 'duplicate'

/** A verified event kept from the handlers, as the store records it. */
export interface QuarantineEntry {
  webhookId: string
  /** The envelope's `event`, when it is a string. */
  event?: string
  reason: QuarantineReason
  /** Why, in words: the validation errors, or the timestamp against the allowed window. */
  detail: string
}

/** Where the receiver puts verified events: BullMQ on Redis, one of two ways (`createEventStore` chooses). */
export interface EventStore {
  /**
   * Resolves once the event is durably stored (or known); rejects with `StoreUnavailableError`. `json` is the
   * verified text of `event`, stored as it came.
   */
  accept(event: WebhookEnvelope, json: string): Promise<AcceptOutcome>
  /**
   * Stores a verified event that no handler may see, deduplicated by `webhookId` like `accept` (the same
   * markers), as durably; rejects with `StoreUnavailableError`.
   */
  quarantine(entry: QuarantineEntry, json: string): Promise<QuarantineOutcome>
  /** Resolves when Redis answers and can confirm writes (the replicas the store waits for are there). */
  ready(): Promise<void>
  /** Jobs per state, for the queue-depth gauge. */
  counts(): Promise<Record<string, number>>
  /** When the oldest job still waiting for a worker was stored (ms since the epoch); undefined when none waits. */
  oldestWaitingAt(): Promise<number | undefined>
  close(): Promise<void>
}
