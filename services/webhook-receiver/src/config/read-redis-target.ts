import type { EnvReader } from '@pf/service-kit'
import { parseHostPorts, type RedisTarget } from '../queue'

/**
 * Where Redis is: `REDIS_URL`, or Sentinel (`REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`), or Cluster
 * (`REDIS_CLUSTER_NODES`), one of them. Highly available setups wait for one replica by default.
 */
export function readRedisTarget(env: EnvReader): RedisTarget {
  const sentinels = env.list('REDIS_SENTINELS')
  const clusterNodes = env.list('REDIS_CLUSTER_NODES')
  const url = env.optional('REDIS_URL')
  const chosen = [
    url && 'REDIS_URL',
    sentinels.length > 0 && 'REDIS_SENTINELS',
    clusterNodes.length > 0 && 'REDIS_CLUSTER_NODES',
  ]
  if (chosen.filter(Boolean).length > 1)
    env.problem(
      `set one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (got ${chosen.filter(Boolean).join(' and ')})`,
    )
  const credentials = { username: env.optional('REDIS_USERNAME'), password: env.optional('REDIS_PASSWORD') }
  const hosts = (name: string, items: string[]) => {
    const { nodes, bad } = parseHostPorts(items)
    if (bad !== undefined) env.problem(`${name} must be a comma list of host:port (got "${bad}")`)
    return nodes
  }
  if (sentinels.length > 0) {
    const name = env.optional('REDIS_SENTINEL_NAME')
    if (!name)
      env.problem(
        'REDIS_SENTINEL_NAME is required with REDIS_SENTINELS (the master name the sentinels monitor)',
      )
    return {
      kind: 'sentinel',
      sentinels: hosts('REDIS_SENTINELS', sentinels),
      name: name ?? '',
      ...credentials,
      waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 1, min: 0, max: 16 }),
    }
  }
  if (clusterNodes.length > 0)
    return {
      kind: 'cluster',
      nodes: hosts('REDIS_CLUSTER_NODES', clusterNodes),
      ...credentials,
      waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 1, min: 0, max: 16 }),
    }
  if (env.optional('REDIS_SENTINEL_NAME')) env.problem('REDIS_SENTINEL_NAME needs REDIS_SENTINELS')
  return {
    kind: 'url',
    url: env.url('REDIS_URL', 'redis://127.0.0.1:6379'),
    waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 0, min: 0, max: 16 }),
  }
}
