import { createHash } from 'node:crypto'
import { parseDateTime } from '@pf/schemas'

/** Longest session id used as is in a Redis key; a longer one is hashed (the platform sets no bound). */
export const MAX_KEY_SESSION_ID = 128
/**
 * What a hashed session id's key part starts with. An id that starts so is hashed too: used as is, it could be
 * the key part of a long id it names the hash of, and the two sessions would share one order (and lateness).
 */
export const HASHED = 'sha256:'

/** Where an event stands in its session: the session's key part and the event's place (signed timestamp, ms). */
export interface EventPlace {
  sessionId: string
  webhookId: string
  jobId: string
  /** The session id as it appears in the ordering keys. */
  sessionKey: string
  /** The signed `timestamp` in ms since the epoch: the sort order; ties go by `member`. */
  score: number
  /** What the session's pending set holds for the event: `<webhookId> <jobId>`, so ties sort by webhookId. */
  member: string
}

/**
 * An event's place in its session, from the stored envelope; undefined when it has no `data.sessionId`, no
 * readable `timestamp` or no webhookId (it is then handed on outside any order; the schema check that follows
 * refuses it anyway, as no event kind lacks them).
 */
export function sessionOf(event: unknown, jobId: string): EventPlace | undefined {
  const envelope = event as {
    timestamp?: unknown
    webhookId?: unknown
    data?: { sessionId?: unknown }
  } | null
  const sessionId = envelope?.data?.sessionId
  const webhookId = envelope?.webhookId
  if (typeof sessionId !== 'string' || sessionId.length === 0) return undefined
  if (typeof webhookId !== 'string' || webhookId.length === 0 || typeof envelope?.timestamp !== 'string')
    return undefined
  const score = parseDateTime(envelope.timestamp)
  if (score === undefined) return undefined
  const sessionKey =
    sessionId.length <= MAX_KEY_SESSION_ID && !sessionId.startsWith(HASHED)
      ? sessionId
      : `${HASHED}${createHash('sha256').update(sessionId).digest('hex')}`
  return { sessionId, webhookId, jobId, sessionKey, score, member: `${webhookId} ${jobId}` }
}
