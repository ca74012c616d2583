import type { Logger } from '@pf/service-kit'
import { checkEvictionPolicy } from './check-eviction-policy'
import { createRedisConnection, type RedisConnection } from './create-redis-connection'
import type { RedisTarget } from './redis-target'

/**
 * The worker's Redis connection (blocking commands allowed), its eviction policy checked each time it is
 * ready; its errors are reported by the consumer's own 'error' event.
 */
export function openWorkerConnection(redis: RedisTarget, logger: Logger): RedisConnection {
  const connection = createRedisConnection(redis, 'worker')
  connection.on('ready', () => void checkEvictionPolicy(connection, logger))
  connection.on('error', () => {})
  return connection
}
