import { parseDateTime, validateWebhookEvent, WEBHOOK_ID_MAX_LENGTH } from '@pf/schemas'
import { parseJsonBody } from '@pf/signing'
import { InvalidEnvelopeError } from '../errors'
import type { AcceptOutcome, EventStore, QuarantineOutcome, QuarantineReason } from '../queue'
import { nestsDeeperThan } from './nests-deeper-than'

/** What became of a verified event: stored for the worker, recognised as a redelivery, or quarantined. */
export interface Received {
  outcome: AcceptOutcome | QuarantineOutcome
  webhookId: string
  /** The envelope's `event` when it is a string, known or not. */
  event?: string
  /** Set when the event was quarantined now. */
  quarantined?: Held
}

export interface ReceiveOptions {
  /** Oldest signed `timestamp` handed on, in ms (`WEBHOOK_MAX_AGE_SECONDS`); older ones are `stale`. */
  maxAgeMs: number
  /** The clock, in ms since the epoch. */
  now?: () => number
}

/** Deepest nesting of objects and arrays accepted in an envelope; the spec's events nest two levels. */
export const MAX_ENVELOPE_NESTING = 32

/** How far ahead of our clock a signed `timestamp` may be (clock skew) before the event is `future`. */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000

/**
 * The receiver's decisions for a body whose signature was verified (spec, receiver rules). Refused (400) are
 * only what cannot be kept: JSON nested deeper than `MAX_ENVELOPE_NESTING` (a transport bound), a body that is
 * not a JSON object, and one without a usable `webhookId` (missing, not a string, empty or over its bound:
 * nothing to deduplicate on). The platform is the authority on its own payloads, so everything else is kept
 * and acknowledged, deduplicated by `webhookId` (rule 3): an event that fails the schema (a known kind with
 * unexpected `data`, a missing or unknown `event`, a missing `timestamp`) is quarantined as `invalid_data`
 * (an unknown kind is so "ignored", rule 4), one whose signed `timestamp` is older than `maxAgeMs` as `stale`
 * (a captured delivery replayed once its dedup marker is gone), one more than `MAX_FUTURE_SKEW_MS` ahead as
 * `future`; no handler sees them. The `timestamp` is read by `parseDateTime`, as the schema accepts it (an
 * hour-only offset, a leap second); one it still cannot read is `invalid_data`, never taken for fresh. The
 * rest is stored for the worker with its verified text as it came. Resolves only once the store has it: the
 * 200 follows.
 */
export async function receiveEvent(
  raw: Uint8Array,
  store: EventStore,
  { maxAgeMs, now = Date.now }: ReceiveOptions,
): Promise<Received> {
  if (nestsDeeperThan(raw, MAX_ENVELOPE_NESTING))
    throw new InvalidEnvelopeError(`webhook envelope nests deeper than ${MAX_ENVELOPE_NESTING} levels`)
  const { text, body } = parseJsonBody(raw)
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidEnvelopeError('webhook envelope must be a JSON object')
  const { webhookId, event } = body as { webhookId?: unknown; event?: unknown }
  if (typeof webhookId !== 'string' || webhookId === '')
    throw new InvalidEnvelopeError('webhookId is required (a string): nothing to deduplicate on')
  if (webhookId.length > WEBHOOK_ID_MAX_LENGTH)
    throw new InvalidEnvelopeError(`webhookId is longer than ${WEBHOOK_ID_MAX_LENGTH} characters`)
  const kind = typeof event === 'string' ? event : undefined
  const checked = validateWebhookEvent(body)
  const held: Held | undefined = checked.ok
    ? outOfWindow(checked.value.timestamp, maxAgeMs, now())
    : { reason: 'invalid_data', detail: checked.error }
  if (!checked.ok || held) {
    const outcome = await store.quarantine({ webhookId, event: kind, ...held! }, text)
    return { outcome, webhookId, event: kind, quarantined: outcome === 'quarantined' ? held : undefined }
  }
  return { outcome: await store.accept(checked.value, text), webhookId, event: kind }
}

type Held = { reason: QuarantineReason; detail: string }

/**
 * `stale` or `future` for a signed `timestamp` out of the window around `now`, `invalid_data` for one that cannot
 * be read (an age of NaN would pass both comparisons); undefined within the window.
 */
function outOfWindow(timestamp: string, maxAgeMs: number, now: number): Held | undefined {
  const sentAt = parseDateTime(timestamp)
  if (sentAt === undefined)
    return { reason: 'invalid_data', detail: `timestamp ${timestamp} cannot be read as a date-time` }
  const age = now - sentAt
  if (age > maxAgeMs)
    return { reason: 'stale', detail: `timestamp ${timestamp} is older than ${maxAgeMs / 1000} s` }
  if (-age > MAX_FUTURE_SKEW_MS)
    return {
      reason: 'future',
      detail: `timestamp ${timestamp} is more than ${MAX_FUTURE_SKEW_MS / 60_000} minutes ahead of our clock`,
    }
  return undefined
}
