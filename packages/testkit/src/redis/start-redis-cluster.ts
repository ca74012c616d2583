import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { waitUntil } from '../lib/wait-until'
import { freeClusterPort } from './free-cluster-port'
import { redisCommand, type RespValue } from './redis-command'
import { startRedisGroup } from './redis-group'
import type { RedisProcess } from './redis-process'

export interface RedisClusterHandle {
  /** Every node (what `REDIS_CLUSTER_NODES` may list). */
  addresses: { host: string; port: number }[]
  nodes: RedisProcess[]
  /** The port of the master that serves `key`'s hash slot now. */
  masterFor(key: string): Promise<number>
  stop(): Promise<void>
}

export interface StartRedisClusterOptions {
  masters?: number
  replicasPerMaster?: number
  /** How long a node may not answer before the others fail it over. */
  nodeTimeoutMs?: number
}

/**
 * A private Redis Cluster (`--cluster-enabled yes`): `masters` masters with `replicasPerMaster` replicas each, on
 * free ports of 127.0.0.1, made with `redis-cli --cluster create`, in a temporary folder that `stop()` removes.
 * A master killed with `stop('SIGKILL')` is replaced by its replica within a few seconds.
 *
 * @example
 * const cluster = await startRedisCluster()
 * const port = await cluster.masterFor('{pf}')
 * await cluster.nodes.find((node) => node.port === port)?.stop('SIGKILL') // its replica takes over
 */
export async function startRedisCluster({
  masters = 3,
  replicasPerMaster = 1,
  nodeTimeoutMs = 1000,
}: StartRedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const group = startRedisGroup('cluster')
  try {
    const nodes: RedisProcess[] = []
    for (let i = 0; i < masters * (1 + replicasPerMaster); i += 1) {
      const port = await freeClusterPort()
      const config = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`]
      nodes.push(await group.server(port, [...config, '--cluster-node-timeout', String(nodeTimeoutMs)]))
    }
    await promisify(execFile)('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      String(replicasPerMaster),
      '--cluster-yes',
    ])
    const state = async (port: number) => String(await redisCommand(port, ['CLUSTER', 'INFO']))
    for (const node of nodes)
      await waitUntil(async () => (await state(node.port)).includes('cluster_state:ok'), 'the cluster')
    // A replica that never synced cannot take over: wait until every one has.
    for (const node of nodes)
      await waitUntil(async () => {
        const info = String(await redisCommand(node.port, ['INFO', 'replication']))
        return info.includes('role:master') || info.includes('master_link_status:up')
      }, 'the replicas to sync')
    const handle: RedisClusterHandle = {
      addresses: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
      nodes,
      async masterFor(key) {
        for (const node of nodes) {
          const slot = await redisCommand(node.port, ['CLUSTER', 'KEYSLOT', key]).catch(() => null)
          const ranges = await redisCommand(node.port, ['CLUSTER', 'SLOTS']).catch(() => null)
          if (typeof slot !== 'number' || !Array.isArray(ranges)) continue
          for (const range of ranges as RespValue[][]) {
            const [from, to, master] = range as [number, number, RespValue[]]
            if (slot >= from && slot <= to) return Number(master[1])
          }
        }
        throw new Error('no cluster node answers')
      },
      stop: () => group.stop(),
    }
    return handle
  } catch (error) {
    await group.stop()
    throw error
  }
}
