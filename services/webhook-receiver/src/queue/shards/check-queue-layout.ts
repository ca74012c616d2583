import { withTimeout } from '@pf/service-kit'
import { createRedisConnection } from '../redis/create-redis-connection'
import { describeRedisTarget, type RedisTarget } from '../redis/redis-target'
import { claimQueueLayout, type LayoutClaim, type QueueLayout } from './claim-queue-layout'

/** How long a start waits for Redis to answer the layout check before it gives up (exit 1). */
export const LAYOUT_CHECK_TIMEOUT_MS = 15_000

/**
 * `claimQueueLayout` on a connection of its own, closed after, within `LAYOUT_CHECK_TIMEOUT_MS`: what a start
 * (receiver, worker, dead-letter command) runs before it serves.
 */
export async function checkQueueLayout(
  target: RedisTarget,
  claim: LayoutClaim,
  timeoutMs = LAYOUT_CHECK_TIMEOUT_MS,
): Promise<QueueLayout> {
  // Commands wait for the connection (a Redis starting beside this process), within the time-out.
  const connection = createRedisConnection(target, 'worker', { connectTimeout: 2000 })
  connection.on('error', () => {}) // the time-out says what went wrong, once
  try {
    return await withTimeout(
      claimQueueLayout(connection, claim),
      timeoutMs,
      `reading the queue layout (QUEUE_SHARDS) from Redis at ${describeRedisTarget(target)}`,
    )
  } finally {
    connection.disconnect()
  }
}
