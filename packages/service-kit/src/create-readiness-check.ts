export interface ReadinessCheckOptions {
  /** How long one outcome, ready or not, answers every caller (`READY_CACHE_MS`); 0: each call checks. */
  cacheMs?: number
  /** The clock (tests pass their own). */
  now?: () => number
}

/**
 * Wraps a readiness check so that strangers calling `/ready` cannot make it reach the dependencies (S3,
 * JWKS, the identity provider, Redis) more than once per `cacheMs`: concurrent callers share the check in
 * flight, and its outcome (a failure too) answers every call until `cacheMs` after it settled.
 *
 * @example
 * const ready = createReadinessCheck(() => store.ping(), { cacheMs: 2000 })
 * await ready() // at most one PING per 2 s, however many callers
 */
export function createReadinessCheck(
  check: () => Promise<unknown>,
  { cacheMs = 2000, now = Date.now }: ReadinessCheckOptions = {},
): () => Promise<void> {
  let settled: { outcome: Promise<void>; until: number } | undefined
  let running: Promise<void> | undefined
  return () => {
    if (settled && now() < settled.until) return settled.outcome
    if (running) return running
    const outcome = (async () => void (await check()))()
    const settle = () => {
      settled = { outcome, until: now() + cacheMs }
      running = undefined
    }
    outcome.then(settle, settle)
    running = outcome
    return outcome
  }
}
