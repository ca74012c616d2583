import { withTimeout } from '@pf/service-kit'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { createRedisConnection } from '../redis/create-redis-connection'
import { describeRedisTarget, type RedisTarget } from '../redis/redis-target'
import { LAYOUT_CHECK_TIMEOUT_MS } from './check-queue-layout'
import { layoutKey, type QueueLayout } from './claim-queue-layout'

// KEYS: the layout, and two keys every job of the unsharded queue writes (meta, id). Writes nothing: a start
// would record 1 shard for an unrecorded queue that has jobs, and none for an empty one (nil).
const READ = `
local shards, from, till = unpack(redis.call("HMGET", KEYS[1], "shards", "from", "until"))
if not shards then
  if redis.call("EXISTS", KEYS[2], KEYS[3]) == 0 then return nil end
  shards = "1"
end
if from and tonumber(till) <= tonumber(ARGV[1]) then from, till = false, false end
return {shards, from or "", till or ""}`

/**
 * The queue layout Redis records under `prefix`, as a start would find it, without recording anything (the
 * doctor's check); `undefined` when nothing is recorded yet, so the first start records its own `QUEUE_SHARDS`.
 */
export async function readQueueLayout(
  target: RedisTarget,
  prefix: string,
  timeoutMs = LAYOUT_CHECK_TIMEOUT_MS,
): Promise<QueueLayout | undefined> {
  const connection = createRedisConnection(target, 'worker', { connectTimeout: 2000 })
  connection.on('error', () => {}) // the time-out says what went wrong, once
  const queueKey = `${prefix}:${WEBHOOK_QUEUE_NAME}:`
  try {
    const reply = (await withTimeout(
      connection.eval(READ, 3, layoutKey(prefix), `${queueKey}meta`, `${queueKey}id`, String(Date.now())),
      timeoutMs,
      `reading the queue layout (QUEUE_SHARDS) from Redis at ${describeRedisTarget(target)}`,
    )) as [string, string, string] | null
    if (!reply) return undefined
    const [shards, from, until] = reply
    return {
      shards: Number(shards),
      resharding: from ? { from: Number(from), until: Number(until) } : undefined,
    }
  } finally {
    connection.disconnect()
  }
}
