import { addJobKeepingMarker } from './add-job-keeping-marker'
import type { EventStore } from '../event-store'
import { registerIfStored } from '../ordering/register-if-stored'
import { sessionOf } from '../ordering/session-of'
import { withTraceData } from '../job-trace-context'
import { unconfirmedWrite } from './unconfirmed-write'
import {
  openWebhookQueue,
  webhookQueueStore,
  type OpenedEventStore,
  type EventStoreOptions,
} from './webhook-queue-store'

/**
 * The event store that works with any BullMQ 5: each job is added by `addJobKeepingMarker` (Queue.add's script
 * in a MULTI, one job at a time), then `WAIT` on the queue's connection, which also writes the quarantined
 * events. Not in a Cluster, where a command without a key goes to any node: there, the write is the primary's
 * word.
 */
export function createQueueAddEventStore(options: EventStoreOptions): OpenedEventStore {
  const opened = openWebhookQueue(options)
  const { queue, client } = opened
  const waitReplicas = options.redis.kind === 'cluster' ? 0 : options.redis.waitReplicas
  // Within the enqueue time-out, so that a missing replica is a 503 of ours, not a time-out.
  const waitTimeoutMs = Math.max(1, Math.floor(options.enqueueTimeoutMs * 0.8))
  const ttl = options.dedupTtlSeconds * 1000
  const store: EventStore = webhookQueueStore({
    options,
    opened,
    writer: client,
    waitReplicas,
    waitTimeoutMs,
    async add(event, _json, jobId, trace) {
      const place = options.ordering === 'session' ? sessionOf(event, jobId) : undefined
      const held = await addJobKeepingMarker(
        queue,
        event.event,
        withTraceData(event, trace),
        { jobId, deduplication: { id: event.webhookId, ttl } },
        place && registerIfStored(queue, await client(), place, ttl),
      )
      if (waitReplicas > 0) {
        const error = unconfirmedWrite(await (await client()).wait(waitReplicas, waitTimeoutMs), waitReplicas)
        if (error) throw error
      }
      return held
    },
  })
  return { store, queue }
}
