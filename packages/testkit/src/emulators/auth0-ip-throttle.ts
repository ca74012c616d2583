/** The `pre-custom-token-exchange` stage of Suspicious IP Throttling: `max_attempts` and `rate` (ms a new one takes). */
export interface IpThrottleStage {
  maxAttempts: number
  rateMs: number
}

/**
 * Suspicious IP Throttling for Custom Token Exchange (cte-attack-protection.mdx): each
 * `api.access.rejectInvalidSubjectToken` counts one failure for the request's address; once `maxAttempts`
 * (default 10) are counted, every exchange from it is answered 429 `too_many_attempts`, before any Action runs,
 * until attempts come back, one every `rateMs` (default 600 000: 6 an hour). Denials count nothing.
 */
export function createIpThrottle({ maxAttempts = 10, rateMs = 600_000 }: Partial<IpThrottleStage> = {}) {
  const failures = new Map<string, { count: number; since: number }>()
  const current = (ip: string) => {
    const entry = failures.get(ip)
    if (!entry) return 0
    const refilled = Math.floor((Date.now() - entry.since) / rateMs)
    return Math.max(0, entry.count - refilled)
  }
  return {
    blocked: (ip: string) => current(ip) >= maxAttempts,
    fail(ip: string) {
      failures.set(ip, { count: current(ip) + 1, since: Date.now() })
    },
    failuresOf: current,
  }
}
export type IpThrottle = ReturnType<typeof createIpThrottle>
