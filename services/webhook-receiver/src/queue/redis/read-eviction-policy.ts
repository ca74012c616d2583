import { createRedisConnection } from './create-redis-connection'
import type { RedisTarget } from './redis-target'

/**
 * Redis's `maxmemory-policy`, read from `INFO memory` (managed Redis services allow INFO and often forbid
 * CONFIG), on a connection of its own that tries once; undefined when Redis does not report it. Rejects when
 * Redis does not answer, saying what the connection met.
 */
export async function readEvictionPolicy(redis: RedisTarget): Promise<string | undefined> {
  const connection = createRedisConnection(redis, 'worker', { maxRetriesPerRequest: 1, connectTimeout: 3000 })
  // What the connection met (ECONNREFUSED, a wrong password) says more than ioredis's "max retries" does.
  let cause: Error | undefined
  connection.on('error', (error: Error) => (cause = error))
  try {
    await connection.ping()
    return /^maxmemory_policy:(\S+)/m.exec(await connection.info('memory'))?.[1]
  } catch (error) {
    throw cause ? new Error(`does not answer (${cause.message})`, { cause }) : error
  } finally {
    connection.disconnect()
  }
}
