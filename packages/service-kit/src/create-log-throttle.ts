export interface LogThrottleOptions {
  /** How long one key stays quiet after it was logged. */
  windowMs?: number
  /** Keys followed at once; past it, the oldest is forgotten (its next occurrence logs again). */
  maxKeys?: number
}

/** Writes one log line; `suppressed` is how many occurrences were held back since the previous line. */
export type ThrottledLog = (suppressed: number) => void

/**
 * Logs the first occurrence of each key, then at most one line per window with the count of what it held
 * back, so a dependency outage at 400 requests/s writes one line every few seconds instead of a stack trace
 * per request. A count still pending when the window ends is written then, so none is lost.
 *
 * @example
 * const throttle = createLogThrottle()
 * throttle('ERR_STORE_UNAVAILABLE', (suppressed) => logger.error({ suppressed }, 'request failed'))
 */
export function createLogThrottle({ windowMs = 10_000, maxKeys = 1000 }: LogThrottleOptions = {}) {
  const windows = new Map<string, { suppressed: number; last: ThrottledLog; timer: NodeJS.Timeout }>()
  const open = (key: string) => {
    const timer = setTimeout(() => {
      const window = windows.get(key)
      windows.delete(key)
      if (window && window.suppressed > 0) {
        window.last(window.suppressed)
        open(key)
      }
    }, windowMs)
    timer.unref()
    if (windows.size >= maxKeys) {
      const [oldest] = windows.keys()
      clearTimeout(windows.get(oldest!)!.timer)
      windows.delete(oldest!)
    }
    windows.set(key, { suppressed: 0, last: () => {}, timer })
  }
  return (key: string, log: ThrottledLog): void => {
    const window = windows.get(key)
    if (window) {
      window.suppressed += 1
      window.last = log
      return
    }
    log(0)
    open(key)
  }
}
