import type { EnvReader } from '@pf/service-kit'
import { DEFAULT_QUEUE_PREFIX, ORDERING_MODES, type OrderingMode, type RedisTarget } from '../queue'
import { readRedisTarget } from './read-redis-target'

/** What every process of the receiver needs to find the queue: Redis, the key prefix, the ordering mode. */
export interface QueueConfig {
  redis: RedisTarget
  queuePrefix: string
  /** `WEBHOOK_ORDERING`: `session` hands a session's events on one at a time, in signed-timestamp order. */
  ordering: OrderingMode
}

/** `WEBHOOK_QUEUE_PREFIX`, the Redis settings and `WEBHOOK_ORDERING`, read alike by all three processes. */
export function readQueueSettings(env: EnvReader): QueueConfig {
  const queuePrefix = env.string('WEBHOOK_QUEUE_PREFIX', DEFAULT_QUEUE_PREFIX)
  const redis = readRedisTarget(env)
  // Redis Cluster: BullMQ's scripts touch many keys of a queue at once, which must share one hash slot.
  if (redis.kind === 'cluster' && !/\{[^}]+\}/.test(queuePrefix))
    env.problem(
      `WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with REDIS_CLUSTER_NODES (got "${queuePrefix}")`,
    )
  return { redis, queuePrefix, ordering: env.oneOf('WEBHOOK_ORDERING', ORDERING_MODES, 'off') }
}
