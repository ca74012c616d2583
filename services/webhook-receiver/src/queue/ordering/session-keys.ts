/** The two keys of a session's ordering state, under the queue's prefix (its hash slot). */
export interface SessionKeys {
  /** Sorted set: the session's events not yet handed on for good, scored by signed timestamp. */
  pending: string
  /** Hash: `lease` (`<jobId> <lock token>`), `newest` (ms), `park:<jobId>`, `late:<jobId>`. */
  state: string
}

/** Where the enqueue script builds the same names: `<queueKeyPrefix>ordering:<sessionKey>:p` and `:s`. */
export const PENDING_SUFFIX = ':p'

export function sessionKeys(queueKeyPrefix: string, sessionKey: string): SessionKeys {
  const base = `${queueKeyPrefix}ordering:${sessionKey}`
  return { pending: `${base}${PENDING_SUFFIX}`, state: `${base}:s` }
}
