import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { EventStore } from './queue'

/** The receiver's metrics, on the app's own registry. */
export function createReceiverMetrics(registry: Registry, store: EventStore) {
  return {
    accepted: new Counter({
      name: 'pf_webhooks_accepted_total',
      help: 'Events verified and durably stored, by kind',
      labelNames: ['event'],
      registers: [registry],
    }),
    duplicates: new Counter({
      name: 'pf_webhooks_duplicates_total',
      help: 'Redeliveries of an already accepted webhookId, acknowledged and not stored again',
      registers: [registry],
    }),
    unknownKinds: new Counter({
      name: 'pf_webhooks_unknown_kind_total',
      help: 'Verified events of a kind this receiver does not know, acknowledged and quarantined (invalid_data)',
      registers: [registry],
    }),
    quarantined: new Counter({
      name: 'pf_webhooks_quarantined_total',
      help: 'Verified events acknowledged and kept from the handlers, by reason (invalid_data, stale, future)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    rejected: new Counter({
      name: 'pf_webhooks_rejected_total',
      help: "Requests refused, by reason (the error table's, RECEIVER_ERRORS)",
      labelNames: ['reason'],
      registers: [registry],
    }),
    enqueueSeconds: new Histogram({
      name: 'pf_webhook_enqueue_duration_seconds',
      help: 'Time to store an event in Redis (dedup + enqueue)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'pf_webhook_queue_jobs',
      help: 'Jobs in the webhook queue, by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        try {
          for (const [state, count] of Object.entries(await store.counts())) this.set({ state }, count)
        } catch {
          // Redis away: keep the last values rather than fail the whole scrape.
        }
      },
    }),
    oldestWaiting: new Gauge({
      name: 'pf_webhook_queue_oldest_waiting_age_seconds',
      help: 'Age of the oldest job waiting for a worker (0 when none waits): events are this late',
      registers: [registry],
      async collect() {
        try {
          const storedAt = await store.oldestWaitingAt()
          this.set(storedAt === undefined ? 0 : Math.max(0, (Date.now() - storedAt) / 1000))
        } catch {
          // Redis away: keep the last value, as the depth gauge does.
        }
      },
    }),
  }
}

export type ReceiverMetrics = ReturnType<typeof createReceiverMetrics>

/** The worker's metrics, on its own registry (it is a process of its own). */
export function createWorkerMetrics(registry: Registry) {
  return {
    processed: new Counter({
      name: 'pf_webhook_jobs_total',
      help: 'Jobs run by the worker, by kind and outcome (handled, no_handler, retry, dead_letter)',
      labelNames: ['event', 'outcome'],
      registers: [registry],
    }),
    handlerSeconds: new Histogram({
      name: 'pf_webhook_handler_duration_seconds',
      help: 'Time spent in handlers',
      labelNames: ['event'],
      registers: [registry],
    }),
  }
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>
