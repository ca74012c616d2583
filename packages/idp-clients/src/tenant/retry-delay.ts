/**
 * How long to wait before retrying a 429: the server's `Retry-After` (seconds) or `x-ratelimit-reset` (epoch
 * seconds) when given, else exponential backoff with full jitter; never more than `maxDelayMs`.
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
): number {
  const retryAfter = Number(headers['retry-after'])
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, maxDelayMs)
  const reset = Number(headers['x-ratelimit-reset'])
  if (Number.isFinite(reset) && reset > 0) return Math.min(Math.max(0, reset * 1000 - now), maxDelayMs)
  return Math.min(random() * baseDelayMs * 2 ** attempt, maxDelayMs)
}
