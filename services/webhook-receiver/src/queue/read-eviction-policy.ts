import { createRedisConnection } from './create-redis-connection'
import type { RedisTarget } from './redis-target'

/**
 * Redis's `maxmemory-policy`, read from `INFO memory` (managed Redis services allow INFO and often forbid
 * CONFIG), on a connection of its own that tries once; undefined when Redis does not report it. Rejects when
 * Redis does not answer.
 */
export async function readEvictionPolicy(redis: RedisTarget): Promise<string | undefined> {
  const connection = createRedisConnection(redis, 'worker', { maxRetriesPerRequest: 1, connectTimeout: 3000 })
  connection.on('error', () => {}) // the caller's own failure says it, once
  try {
    await connection.ping()
    return /^maxmemory_policy:(\S+)/m.exec(await connection.info('memory'))?.[1]
  } finally {
    connection.disconnect()
  }
}
