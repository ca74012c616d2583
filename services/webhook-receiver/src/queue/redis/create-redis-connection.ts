import { Cluster, Redis, type RedisOptions } from 'ioredis'
import type { RedisTarget } from './redis-target'

export type RedisConnection = Redis | Cluster

/**
 * What a connection is for:
 * - `producer` (the receiver): commands fail at once while disconnected (no offline queue, one retry), so the
 *   receiver answers 503 quickly instead of holding the platform's request past its 5 s; it keeps reconnecting
 *   in the background, so a Redis restart or a failover heals by itself. Commands issued in one tick go out in
 *   one write (auto-pipelining);
 * - `worker` (BullMQ workers, the dead-letter command): blocking commands need `maxRetriesPerRequest: null`.
 */
export type ConnectionRole = 'producer' | 'worker'

const ROLE_OPTIONS: Record<ConnectionRole, RedisOptions> = {
  producer: {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  },
  worker: { maxRetriesPerRequest: null },
}

const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2000)

/**
 * ioredis options for a URL or a Sentinel target (a Cluster needs `createRedisConnection`). Given to BullMQ as
 * options rather than as a client, BullMQ owns the connection: closing a queue whose shared connection is
 * still being set up leaves an unhandled 'error' behind in BullMQ 5.
 */
export function redisOptions(
  target: Exclude<RedisTarget, { kind: 'cluster' }>,
  role: ConnectionRole,
  overrides: RedisOptions = {},
): RedisOptions & { url?: string } {
  const common = { retryStrategy, ...ROLE_OPTIONS[role], ...overrides }
  if (target.kind === 'url') return { url: target.url, ...common }
  return {
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    username: target.username,
    password: target.password,
    // A primary demoted while alive (a manual failover) answers writes with READONLY: reconnect, and the
    // sentinels name the new one. (ioredis's failoverDetector left the client reconnecting for good in 3 of 25
    // failovers here.)
    reconnectOnError: (error: Error) => error.message.startsWith('READONLY'),
    sentinelRetryStrategy: retryStrategy,
    ...common,
  }
}

/** A client for the target: a `Redis` (URL, Sentinel) or a `Cluster`. */
export function createRedisConnection(
  target: RedisTarget,
  role: ConnectionRole,
  overrides: RedisOptions = {},
): RedisConnection {
  if (target.kind === 'cluster') {
    const { enableAutoPipelining, enableOfflineQueue, ...nodeOptions } = {
      ...ROLE_OPTIONS[role],
      ...overrides,
    }
    return new Cluster(target.nodes, {
      enableAutoPipelining,
      enableOfflineQueue,
      clusterRetryStrategy: retryStrategy,
      // Where the slots are is asked again every few seconds, whatever happened: a view taken mid-failover
      // heals by itself.
      slotsRefreshInterval: 5000,
      redisOptions: { username: target.username, password: target.password, ...nodeOptions },
    })
  }
  const { url, ...options } = redisOptions(target, role, overrides)
  return url ? new Redis(url, options) : new Redis(options)
}

/**
 * What BullMQ is given: options for a URL or Sentinel (BullMQ owns the connection), a `Cluster` client for a
 * Cluster (BullMQ cannot make one from options; the caller closes it).
 */
export function bullmqConnection(
  target: RedisTarget,
  role: ConnectionRole,
  overrides: RedisOptions = {},
): { connection: RedisOptions | Cluster; owned?: Cluster } {
  if (target.kind !== 'cluster') return { connection: redisOptions(target, role, overrides) }
  const cluster = createRedisConnection(target, role, overrides) as Cluster
  return { connection: cluster, owned: cluster }
}
