/**
 * How long to wait before retrying: the server's `Retry-After` (seconds, or an HTTP date) or
 * `x-ratelimit-reset` (epoch seconds) when given, else exponential backoff with full jitter, as Auth0's SDK
 * does. Returns `undefined` when the server asks for longer than `maxDelayMs`: waiting that long is not worth
 * it, the caller should give up and pass the server's answer on.
 */
export function retryDelay(
  attempt: number,
  headers: Record<string, string>,
  {
    baseDelayMs,
    maxDelayMs,
    now = Date.now(),
    random = Math.random,
  }: { baseDelayMs: number; maxDelayMs: number; now?: number; random?: () => number },
): number | undefined {
  const asked = askedDelay(headers, now)
  if (asked !== undefined) return asked <= maxDelayMs ? asked : undefined
  return Math.min(random() * baseDelayMs * 2 ** attempt, maxDelayMs)
}

function askedDelay(headers: Record<string, string>, now: number): number | undefined {
  const retryAfter = headers['retry-after']
  if (retryAfter !== undefined && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter)
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
    const date = Date.parse(retryAfter)
    if (Number.isFinite(date)) return Math.max(0, date - now)
  }
  const reset = Number(headers['x-ratelimit-reset'])
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now)
  return undefined
}
