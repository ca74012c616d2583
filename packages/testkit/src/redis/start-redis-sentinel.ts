import { freePort } from '../lib/free-port'
import { waitUntil } from '../lib/wait-until'
import { redisCommand } from './redis-command'
import { startRedisGroup } from './redis-group'
import type { RedisProcess } from './redis-process'

export interface RedisSentinelHandle {
  /** The sentinels' addresses (what `REDIS_SENTINELS` lists). */
  sentinels: { host: string; port: number }[]
  /** The master name they monitor (`REDIS_SENTINEL_NAME`). */
  name: string
  /** The data nodes as started: the first was the primary, the others its replicas. */
  nodes: RedisProcess[]
  /** The port of the node the sentinels name as primary now. */
  primaryPort(): Promise<number>
  stop(): Promise<void>
}

export interface StartRedisSentinelOptions {
  replicas?: number
  sentinels?: number
  name?: string
  /** How long a primary may not answer before a sentinel thinks it down. */
  downAfterMs?: number
  failoverTimeoutMs?: number
}

/**
 * A private Redis primary with replicas, watched by Debian's `redis-sentinel` processes (quorum: a majority),
 * on free ports of 127.0.0.1, in a temporary folder that `stop()` removes. Fast settings: a primary killed
 * with `nodes[0].stop('SIGKILL')` is replaced by a replica within a few seconds.
 *
 * @example
 * const ha = await startRedisSentinel()
 * env.REDIS_SENTINELS = ha.sentinels.map((s) => `${s.host}:${s.port}`).join(',')
 */
export async function startRedisSentinel({
  replicas = 1,
  sentinels = 3,
  name = 'pf',
  downAfterMs = 1000,
  failoverTimeoutMs = 3000,
}: StartRedisSentinelOptions = {}): Promise<RedisSentinelHandle> {
  const group = startRedisGroup('sentinel')
  try {
    const primary = await freePort()
    const nodes: RedisProcess[] = []
    for (let i = 0; i <= replicas; i += 1)
      nodes.push(
        await group.server(
          i === 0 ? primary : await freePort(),
          i === 0 ? [] : ['--replicaof', '127.0.0.1', String(primary)],
        ),
      )
    const watchers: { host: string; port: number }[] = []
    for (let i = 0; i < sentinels; i += 1) {
      const port = await freePort()
      await group.sentinel(port, [
        `sentinel monitor ${name} 127.0.0.1 ${primary} ${Math.floor(sentinels / 2) + 1}`,
        `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
        `sentinel failover-timeout ${name} ${failoverTimeoutMs}`,
        `sentinel parallel-syncs ${name} 1`,
      ])
      watchers.push({ host: '127.0.0.1', port })
    }
    const handle: RedisSentinelHandle = {
      sentinels: watchers,
      name,
      nodes,
      async primaryPort() {
        for (const { port } of watchers) {
          const answer = await redisCommand(port, ['SENTINEL', 'get-master-addr-by-name', name]).catch(
            () => null,
          )
          if (Array.isArray(answer) && answer[1]) return Number(answer[1])
        }
        throw new Error('no sentinel answers')
      },
      stop: () => group.stop(),
    }
    // Replication must be up before a test relies on a replica.
    await waitUntil(async () => {
      const info = String(await redisCommand(primary, ['INFO', 'replication']))
      return (
        new RegExp(`connected_slaves:${replicas}`).test(info) && !/state=(wait_bgsave|send_bulk)/.test(info)
      )
    }, 'the replicas to sync')
    await waitUntil(async () => (await handle.primaryPort().catch(() => 0)) === primary, 'the sentinels')
    return handle
  } catch (error) {
    await group.stop()
    throw error
  }
}
