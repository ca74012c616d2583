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

/** Where the enqueue script builds the same name: `<queueKeyPrefix>ordering:<sessionKey>:p`. */
export const PENDING_SUFFIX = ':p'

export function sessionKeys(queueKeyPrefix: string, sessionKey: string): SessionKeys {
  return { pending: `${queueKeyPrefix}ordering:${sessionKey}${PENDING_SUFFIX}` }
}
