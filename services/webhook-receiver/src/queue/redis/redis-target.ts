import { redactUrl } from '@pf/service-kit'

/** A Redis server reachable as host and port. */
export interface HostPort {
  host: string
  port: number
}

/**
 * Where the queue lives: one Redis (`REDIS_URL`), a Sentinel-managed primary (`REDIS_SENTINELS` +
 * `REDIS_SENTINEL_NAME`) or a Redis Cluster (`REDIS_CLUSTER_NODES`). `waitReplicas`: how many replicas must
 * hold an event before it is acknowledged (`REDIS_WAIT_REPLICAS`), so a failover cannot lose it.
 */
export type RedisTarget = (
  | { kind: 'url'; url: string }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string }
  | { kind: 'cluster'; nodes: HostPort[] }
) & {
  /** Credentials of the data nodes (Sentinel and Cluster; a URL carries its own). */
  username?: string
  password?: string
  waitReplicas: number
}

/** Where the target points, for logs and error messages: a URL as `redactUrl` shows it, never a password. */
export function describeRedisTarget(target: RedisTarget): string {
  const list = (nodes: HostPort[]) => nodes.map(({ host, port }) => `${host}:${port}`).join(',')
  switch (target.kind) {
    case 'url':
      return redactUrl(target.url)
    case 'sentinel':
      return `sentinel ${target.name} via ${list(target.sentinels)}`
    case 'cluster':
      return `cluster ${list(target.nodes)}`
  }
}

/** `host:port` items of a comma list, or the first one that is not. */
export function parseHostPorts(items: string[]): { nodes: HostPort[]; bad?: string } {
  const nodes: HostPort[] = []
  for (const item of items) {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(item)
    const port = Number(match?.[2])
    if (!match || port < 1 || port > 65535) return { nodes, bad: item }
    nodes.push({ host: (match[1] as string).replace(/^\[|\]$/g, ''), port })
  }
  return { nodes }
}
