import type { RedisConnection } from './redis/create-redis-connection'

/** Longest idempotency key accepted by `once` (it becomes part of a Redis key). */
export const MAX_ONCE_KEY_LENGTH = 512

// KEYS[1] the key's marker; ARGV: this job's id, the queue's key prefix, the marker's time-to-live.
// A marker is "claimed:<jobId>" while an effect runs and "done:<jobId>" once it has. A claim counts only while
// its job still holds its BullMQ lock: a worker killed mid-effect leaves a claim that the next attempt (of the
// same job or of another delivery with the same key) may take over.
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then
  local state, holder = string.match(held, '^(%a+):(.*)$')
  if state == 'done' then return 'done' end
  if holder ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. holder .. ':lock') == 1 then return 'busy:' .. holder end
end
redis.call('SET', KEYS[1], 'claimed:' .. ARGV[1], 'PX', ARGV[3])
return 'claimed'`

// Done: the effect happened, whoever may have taken the claim over meanwhile.
const FINISH = `
redis.call('SET', KEYS[1], 'done:' .. ARGV[1], 'PX', ARGV[3])
return 1`

// Released: only our own claim, so that a failed attempt lets the next one run the effect.
const RELEASE = `
if redis.call('GET', KEYS[1]) == 'claimed:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

/** An effect that another job is running right now: retried later (a plain, retryable error). */
export class EffectBusyError extends Error {
  override readonly name = 'EffectBusyError'
}

export interface OnceOptions {
  connection: RedisConnection
  /** The queue's key prefix with its name (`{pf}:webhooks:`): markers share the queue's hash slot. */
  queueKeyPrefix: string
  /** How long a done effect is remembered: longer than the receiver's dedup window. */
  ttlMs: number
}

/** Runs `effect` once per `key`: true when it ran now, false when it had already run. */
export type Once = (key: string, effect: () => Promise<void>) => Promise<boolean>

type Scripted = RedisConnection & {
  pfOnceClaim(key: string, jobId: string, prefix: string, ttl: number): Promise<string>
  pfOnceFinish(key: string, jobId: string, prefix: string, ttl: number): Promise<number>
  pfOnceRelease(key: string, jobId: string): Promise<number>
}

/**
 * Exactly-once effects for handlers, which BullMQ runs at least once: `once(jobId)` gives a job's handler a
 * function that claims an idempotency key in Redis, runs the effect, and marks the key done (remembered for
 * `ttlMs`, beyond the dedup window); a later delivery or retry with the same key skips the effect. An effect
 * that throws releases the claim (the retry runs it); a worker killed mid-effect leaves a claim that lapses
 * with its job's lock, so the job's next attempt runs the effect. One window remains: a worker killed after
 * the effect and before the marker is written; effects that must never repeat should also write the key in
 * their own transaction.
 */
export function createOnce({ connection, queueKeyPrefix, ttlMs }: OnceOptions): (jobId: string) => Once {
  const redis = connection as Scripted
  if (!('pfOnceClaim' in connection)) {
    connection.defineCommand('pfOnceClaim', { numberOfKeys: 1, lua: CLAIM })
    connection.defineCommand('pfOnceFinish', { numberOfKeys: 1, lua: FINISH })
    connection.defineCommand('pfOnceRelease', { numberOfKeys: 1, lua: RELEASE })
  }
  return (jobId) => async (key, effect) => {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_ONCE_KEY_LENGTH)
      throw new TypeError(`once(key): a key of 1 to ${MAX_ONCE_KEY_LENGTH} characters is required`)
    const marker = `${queueKeyPrefix}once:${key}`
    const claim = await redis.pfOnceClaim(marker, jobId, queueKeyPrefix, ttlMs)
    if (claim === 'done') return false
    if (claim.startsWith('busy:'))
      throw new EffectBusyError(`effect "${key}" is running in job ${claim.slice(5)}: retrying later`)
    try {
      await effect()
    } catch (error) {
      await redis.pfOnceRelease(marker, jobId).catch(() => {})
      throw error
    }
    await redis.pfOnceFinish(marker, jobId, queueKeyPrefix, ttlMs)
    return true
  }
}
