import type { AlertRetryPolicy } from './alert-delivery-settings'

/**
 * The wait before the next attempt after `attempts` failed ones: `baseMs · 2^(attempts-1)`, capped at
 * `maxDelayMs`, of which a random half is taken off ("equal jitter"), so the watches of one receiver that went
 * down together do not all come back at the same instant, and no wait is shorter than half its step.
 */
export function retryDelayMs(
  attempts: number,
  { baseMs, maxDelayMs }: Pick<AlertRetryPolicy, 'baseMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxDelayMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40))
  return Math.round(step / 2 + (step / 2) * random())
}
