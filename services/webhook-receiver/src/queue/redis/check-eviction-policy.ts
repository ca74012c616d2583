import type { Logger } from '@pf/service-kit'
import type { RedisConnection } from './create-redis-connection'

/**
 * Warns when Redis may evict keys: an evicted job or dedup marker is a lost or repeated event. Managed Redis
 * services sometimes forbid CONFIG; that is only logged at debug.
 */
export async function checkEvictionPolicy(connection: RedisConnection, logger: Logger): Promise<void> {
  try {
    const [, policy] = (await connection.config('GET', 'maxmemory-policy')) as [string, string]
    if (policy !== 'noeviction') {
      logger.warn(
        { policy },
        'Redis maxmemory-policy is not noeviction: queued webhooks and dedup markers may be evicted',
      )
    }
  } catch (error) {
    logger.debug({ err: error }, 'could not read Redis maxmemory-policy')
  }
}
