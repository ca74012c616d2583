/** The key of a session's ordering state: its pending set, under the queue's prefix (its hash slot). */
export interface SessionKeys {
  /**
   * Sorted set: the session's events not yet handed on for good, scored by signed timestamp, with its turn
   * holder, parked events and newest timestamp (`ORDERING_FUNCTIONS` says how).
   */
  pending: string
}

/**
 * What the enqueue writes into an ordered event's job hash, and the worker reads there: its session's key part,
 * its signed timestamp (ms), and a replay's mark (handed on late whatever its timestamp).
 */
export const JOB_FIELDS = { session: 'pfs', timestamp: 'pfts', late: 'pflate' } as const

const PENDING_PART = 'ordering:'
const PENDING_SUFFIX = ':p'

/** `<queueKeyPrefix>ordering:<sessionKey>:p`. */
export function sessionKeys(queueKeyPrefix: string, sessionKey: string): SessionKeys {
  return { pending: `${queueKeyPrefix}${PENDING_PART}${sessionKey}${PENDING_SUFFIX}` }
}

/** The same name as a Lua expression, for the scripts that build it from the queue's prefix and a key part. */
export const pendingKeyLua = (prefix: string, sessionKey: string) =>
  `${prefix} .. '${PENDING_PART}' .. ${sessionKey} .. '${PENDING_SUFFIX}'`
