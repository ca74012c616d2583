/** The key of a session's ordering state: its pending set, under the queue's prefix (its hash slot). */
export interface SessionKeys {
  /**
   * Sorted set: the session's events not yet handed on for good, scored by signed timestamp, with its turn
   * holder, parked events and newest timestamp (`ORDERING_FUNCTIONS` says how).
   */
  pending: string
}

/** Where the enqueue script builds the same name: `<queueKeyPrefix>ordering:<sessionKey>:p`. */
export const PENDING_SUFFIX = ':p'

export function sessionKeys(queueKeyPrefix: string, sessionKey: string): SessionKeys {
  return { pending: `${queueKeyPrefix}ordering:${sessionKey}${PENDING_SUFFIX}` }
}
