import { createJobAdder } from './create-job-adder'
import { createRedisConnection } from '../redis/create-redis-connection'
import type { EventStore } from '../event-store'
import {
  openWebhookQueue,
  webhookQueueStore,
  type OpenedEventStore,
  type EventStoreOptions,
} from './webhook-queue-store'
import { whenConnected } from '../redis/when-connected'
import { sessionOf } from '../ordering/session-of'
import { withTraceText } from '../job-trace-context'

/**
 * The event store of the pinned BullMQ: jobs are added by `createJobAdder` (BullMQ's addStandardJob for these
 * options, all of an event-loop turn in one script call) on a connection of its own, followed on it by `WAIT`
 * for `redis.waitReplicas` replicas before the event counts as stored (in a Cluster too: the script names the
 * queue's keys, so the WAIT reaches their master). Quarantined events are written on the same connection.
 */
export function createBatchedEventStore(options: EventStoreOptions): OpenedEventStore {
  const opened = openWebhookQueue(options)
  // The adder gathers its jobs itself: ioredis's auto-pipelining would only wrap each script call in a
  // pipeline of one, and send it an event-loop turn later.
  const connection = createRedisConnection(options.redis, 'producer', { enableAutoPipelining: false })
  connection.on('error', () => {}) // reported by the queue's watcher; every failed enqueue answers 503
  const { waitReplicas } = options.redis
  // Within the enqueue time-out, so that a missing replica is a 503 of ours, not a time-out.
  const waitTimeoutMs = Math.max(1, Math.floor(options.enqueueTimeoutMs * 0.8))
  const ordered = options.ordering === 'session'
  const adder = createJobAdder({
    connection,
    queue: opened.queue,
    deduplicationTtlMs: options.dedupTtlSeconds * 1000,
    waitReplicas,
    waitTimeoutMs,
    ordered,
  })
  const store: EventStore = webhookQueueStore({
    options,
    opened,
    writer: async () => {
      await whenConnected(connection, waitTimeoutMs)
      return connection
    },
    ownConnection: connection,
    waitReplicas,
    waitTimeoutMs,
    add: (event, json, jobId, trace) =>
      adder.add(
        event.event,
        withTraceText(json, trace),
        jobId,
        event.webhookId,
        // Its place (a date parsed) only when it is used: the adder reads none without ordering.
        ordered ? sessionOf(event, jobId) : undefined,
      ),
  })
  return { store, queue: opened.queue }
}
