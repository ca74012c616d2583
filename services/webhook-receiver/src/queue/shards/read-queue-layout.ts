import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { createRedisConnection } from '../redis/create-redis-connection'
import type { RedisTarget } from '../redis/redis-target'
import { layoutKey, type QueueLayout } from './claim-queue-layout'

/**
 * The layout Redis records for the queue under `prefix`, read without writing (what `doctor` shows; a start
 * records it with `claimQueueLayout`): undefined when nothing is recorded and no unsharded queue exists yet,
 * 1 shard for an unsharded queue laid out before layouts were recorded, a resharding past its end dropped.
 */
export async function readQueueLayout(
  target: RedisTarget,
  prefix: string,
  now = Date.now(),
): Promise<QueueLayout | undefined> {
  const connection = createRedisConnection(target, 'worker', {
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
  })
  connection.on('error', () => {}) // the rejected command says what went wrong
  try {
    const [shards, from, until] = await connection.hmget(layoutKey(prefix), 'shards', 'from', 'until')
    if (shards) {
      const running = from && until && Number(until) > now
      return {
        shards: Number(shards),
        resharding: running ? { from: Number(from), until: Number(until) } : undefined,
      }
    }
    const queueKey = `${prefix}:${WEBHOOK_QUEUE_NAME}:`
    const unsharded =
      (await connection.exists(`${queueKey}meta`)) + (await connection.exists(`${queueKey}id`))
    return unsharded > 0 ? { shards: 1 } : undefined
  } finally {
    connection.disconnect()
  }
}
