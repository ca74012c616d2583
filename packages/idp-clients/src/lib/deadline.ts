import { AsyncLocalStorage } from 'node:async_hooks'

const deadlines = new AsyncLocalStorage<number>()

/**
 * Runs `fn` with an overall deadline (`Date.now() + ms`): every identity-provider call made inside it, however
 * deep, gets at most the time left, and retries stop when it is spent. One deadline per exchange, instead of a
 * sum of per-call time-outs.
 *
 * @example
 * await runWithDeadline(8000, () => realm.syncUser(user, password))
 */
export function runWithDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return deadlines.run(Date.now() + ms, fn)
}

/** Milliseconds left before the current deadline; `Infinity` outside `runWithDeadline`. */
export function timeLeft(now = Date.now()): number {
  const deadline = deadlines.getStore()
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - now
}
