import { JOB_FIELDS, pendingKeyLua } from './session-keys'
import type { EventPlace } from './session-of'

/**
 * Lua for the batched enqueue (`createJobAdder`), run right after a job is stored, in the same script: the event
 * joins its session's pending set, and its job's hash gets its place (`pfs`, `pfts`), which the worker's fetch
 * reads there (`ORDERING_FUNCTIONS`). In scope: `prefix` (the queue's key prefix), `ttl` (the dedup TTL, ms),
 * `deduplicationId` (the webhookId), `jobId`, `jobIdKey`, and `sessionKey`, `score` (empty for an event without
 * a session).
 */
export const REGISTER_IN_ADD_SCRIPT = `
      if sessionKey ~= "" then
        local pendingKey = ${pendingKeyLua('prefix', 'sessionKey')}
        rcall("ZADD", pendingKey, score, deduplicationId .. " " .. jobId)
        rcall("PEXPIRE", pendingKey, ttl)
        rcall("HSET", jobIdKey, "${JOB_FIELDS.session}", sessionKey, "${JOB_FIELDS.timestamp}", score)
      end`

/** The per-job values the batched script reads: the session's key part and the score, or two empty strings. */
export function registerArgs(place: EventPlace | undefined): [string, number | string] {
  return place ? [place.sessionKey, place.score] : ['', '']
}
