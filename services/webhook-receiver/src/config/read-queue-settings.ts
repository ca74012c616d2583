import type { EnvReader } from '@pf/service-kit'
import {
  DEFAULT_QUEUE_PREFIX,
  MAX_QUEUE_SHARDS,
  ORDERING_MODES,
  prefixHashTag,
  type OrderingMode,
  type RedisTarget,
} from '../queue'
import { readRedisTarget } from './read-redis-target'

/** What every process of the receiver needs to find the queue: Redis, the prefix, the ordering, the shards. */
export interface QueueConfig {
  redis: RedisTarget
  queuePrefix: string
  /** `WEBHOOK_ORDERING`: `session` hands a session's events on one at a time, in signed-timestamp order. */
  ordering: OrderingMode
  /** `QUEUE_SHARDS`: the queues events are spread over by session, each under its own hash tag. */
  shards: number
  /** `QUEUE_RESHARD_FROM`: during a resharding, the number of shards before it (its markers and queues). */
  reshardFrom?: number
}

/**
 * `WEBHOOK_QUEUE_PREFIX`, the Redis settings, `WEBHOOK_ORDERING` and the shards (`QUEUE_SHARDS`,
 * `QUEUE_RESHARD_FROM`), read alike by all three processes.
 */
export function readQueueSettings(env: EnvReader): QueueConfig {
  const queuePrefix = env.string('WEBHOOK_QUEUE_PREFIX', DEFAULT_QUEUE_PREFIX)
  const redis = readRedisTarget(env)
  // Redis Cluster: BullMQ's scripts touch many keys of a queue at once, which must share one hash slot. Redis
  // hashes a key's first {…} only (an empty one: the whole key), so a {pf} after a {} would not do.
  const hasHashTag = prefixHashTag(queuePrefix) !== undefined
  if (redis.kind === 'cluster' && !hasHashTag)
    env.problem(
      `WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with REDIS_CLUSTER_NODES (got "${queuePrefix}")`,
    )
  const shards = env.int('QUEUE_SHARDS', { default: 1, min: 1, max: MAX_QUEUE_SHARDS })
  const reshardFrom = env.optional('QUEUE_RESHARD_FROM')
    ? env.int('QUEUE_RESHARD_FROM', { default: 1, min: 1, max: MAX_QUEUE_SHARDS })
    : undefined
  // Each shard's queue gets its own hash tag, made from the prefix's.
  if (Math.max(shards, reshardFrom ?? 1) > 1 && !hasHashTag)
    env.problem(
      `WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with QUEUE_SHARDS or QUEUE_RESHARD_FROM above 1 (got "${queuePrefix}")`,
    )
  return {
    redis,
    queuePrefix,
    ordering: env.oneOf('WEBHOOK_ORDERING', ORDERING_MODES, 'off'),
    shards,
    reshardFrom,
  }
}
