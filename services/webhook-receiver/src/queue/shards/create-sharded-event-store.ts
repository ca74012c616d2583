import { withTimeout } from '@pf/service-kit'
import { StoreUnavailableError } from '../../errors'
import type { EventStore } from '../event-store'
import { createEventStore } from '../enqueue/create-event-store'
import type { EventStoreOptions } from '../enqueue/webhook-queue-store'
import { createRedisConnection } from '../redis/create-redis-connection'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { whenConnected } from '../redis/when-connected'
import { shardOf } from './shard-of'
import { shardPrefixes } from './shard-prefixes'
import type { WebhookQueue } from '../webhook-queue'

export interface ShardedEventStoreOptions extends EventStoreOptions {
  /** `QUEUE_SHARDS`: how many queues the events are spread over (1: the unsharded queue, its keys exactly). */
  shards?: number
  /** `QUEUE_RESHARD_FROM`: the layout before a resharding, whose dedup markers are checked too. */
  reshardFrom?: number
  /** The batched enqueue, or `Queue.add`'s (tests). */
  viaQueueAdd?: boolean
}

/** The sharded store and its queues, in shard order (the dashboard and tests). */
export interface ShardedEventStore {
  store: EventStore
  queues: WebhookQueue[]
}

const sum = (counts: Record<string, number>[]) => {
  const total: Record<string, number> = {}
  for (const one of counts)
    for (const [state, n] of Object.entries(one)) total[state] = (total[state] ?? 0) + n
  return total
}

/**
 * The receiver's event store over `shards` queues (`shardPrefixes`): each event goes to the queue of its
 * session (`shardOf`), its dedup marker and ordering state written there by that queue's own store
 * (`createEventStore`), so deduplication stays one atomic step with the enqueue and a session's events share
 * one queue. With 1 shard, it is that one store. During a resharding (`reshardFrom`), an event whose webhookId
 * holds a marker in the old layout's shard is a duplicate: that marker is only read (no process writes the old
 * layout any more), so reading it before the enqueue is exact. Depths are summed over the shards; the oldest
 * waiting job is the oldest of all; ready when every shard is.
 */
export function createShardedEventStore(options: ShardedEventStoreOptions): ShardedEventStore {
  const { shards = 1, reshardFrom, viaQueueAdd, ...rest } = options
  const stores = shardPrefixes(rest.prefix, shards).map((prefix) =>
    createEventStore({ ...rest, prefix, viaQueueAdd }),
  )
  const queues = stores.map(({ queue }) => queue)
  if (shards === 1 && reshardFrom === undefined) return { store: stores[0]!.store, queues }
  const oldMarkers = reshardFrom === undefined ? undefined : oldLayoutMarkers(rest, reshardFrom)
  const storeOf = (event: unknown) => stores[shardOf(event, shards)]!.store
  const store: EventStore = {
    async accept(event, json) {
      if (oldMarkers && (await oldMarkers.known(event))) return 'duplicate'
      return storeOf(event).accept(event, json)
    },
    async quarantine(entry, json) {
      // The body as it came: the same delivery's shard as `accept` would choose.
      const event = parseOrEntry(json, entry)
      if (oldMarkers && (await oldMarkers.known(event))) return 'duplicate'
      return storeOf(event).quarantine(entry, json)
    },
    async ready() {
      await Promise.all(stores.map((one) => one.store.ready()))
    },
    counts: async () => sum(await Promise.all(stores.map((one) => one.store.counts()))),
    async oldestWaitingAt() {
      const oldest = await Promise.all(stores.map((one) => one.store.oldestWaitingAt()))
      const known = oldest.filter((at): at is number => at !== undefined)
      return known.length === 0 ? undefined : Math.min(...known)
    },
    async close() {
      await Promise.all([...stores.map((one) => one.store.close()), oldMarkers?.close()])
    },
  }
  return { store, queues }
}

function parseOrEntry(json: string, entry: { webhookId: string }): unknown {
  try {
    const parsed: unknown = JSON.parse(json)
    return typeof parsed === 'object' && parsed !== null ? { ...parsed, webhookId: entry.webhookId } : entry
  } catch {
    return entry
  }
}

/** The old layout's dedup markers (`<shard prefix>:webhooks:de:<webhookId>`), read on a connection of their own. */
function oldLayoutMarkers(options: EventStoreOptions, shards: number) {
  const prefixes = shardPrefixes(options.prefix, shards)
  const connection = createRedisConnection(options.redis, 'producer')
  // A fifth of the enqueue's time-out (one key read, well under a millisecond normally): with the enqueue's own,
  // the answer comes within 1.2 × WEBHOOK_ENQUEUE_TIMEOUT_MS, 4.8 s at most, inside the platform's 5 s.
  const timeoutMs = Math.max(10, Math.floor(options.enqueueTimeoutMs / 5))
  connection.on('error', () => {}) // a failed read is the event's 503
  return {
    async known(event: unknown): Promise<boolean> {
      const { webhookId } = event as { webhookId: string }
      const key = `${prefixes[shardOf(event, shards)]!}:${WEBHOOK_QUEUE_NAME}:de:${webhookId}`
      try {
        const read = whenConnected(connection, timeoutMs).then(() => connection.exists(key))
        return (await withTimeout(read, timeoutMs, 'reading the old layout')) > 0
      } catch (cause) {
        throw new StoreUnavailableError('event store unavailable, retry later', { cause })
      }
    },
    close: async () => connection.disconnect(),
  }
}
