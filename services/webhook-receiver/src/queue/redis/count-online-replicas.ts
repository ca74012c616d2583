import type { RedisConnection } from './create-redis-connection'

const COMMAND = 'pfReplicationInfo'

type Scripted = RedisConnection & { [COMMAND](key: string): Promise<string> }

/**
 * How many replicas of the primary that holds `key` are online, from its `INFO replication`. Asked through a
 * script declaring `key`, so that in a Cluster it is the master of the queue's hash slot that answers (INFO
 * alone goes to any node); with Sentinel or one URL, the primary the client is connected to.
 */
export async function countOnlineReplicas(connection: RedisConnection, key: string): Promise<number> {
  if (!(COMMAND in connection))
    connection.defineCommand(COMMAND, { numberOfKeys: 1, lua: 'return redis.call("INFO", "replication")' })
  const info = await (connection as Scripted)[COMMAND](key)
  return info.match(/^slave\d+:[^\r\n]*state=online/gm)?.length ?? 0
}
