/**
 * The promise's outcome, or a rejection after `ms` milliseconds saying what took too long.
 *
 * @example
 * await withTimeout(redis.ping(), 2000, 'Redis PING')
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
