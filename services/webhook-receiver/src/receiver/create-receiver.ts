import type { Registry } from 'prom-client'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import type { ReceiverConfig } from '../config'
import { checkQueueLayout, createShardedEventStore, logQueueLayout } from '../queue'
import { createApp, type ReceiverApp } from './create-app'

/**
 * The receiver as `serve` runs it: `ready()` resolves when Redis answers and has the replicas
 * `REDIS_WAIT_REPLICAS` asks for; `start()` checks the queue layout Redis records against `QUEUE_SHARDS` (a
 * mismatch fails the start; Redis is otherwise watched from the start and checked by `/ready`); `close()` closes
 * the event store (its Redis connections).
 */
export interface Receiver extends RunnableService {
  app: ReceiverApp
}

/** The whole receiver from its configuration: the BullMQ event store, the dashboard if configured, the app. */
export function createReceiver(
  config: ReceiverConfig,
  { logger, registry = createMetricsRegistry('pf_receiver') }: { logger: Logger; registry?: Registry },
): Receiver {
  const { store, queues } = createShardedEventStore({ ...config, prefix: config.queuePrefix, logger })
  const dashboard = config.dashboardToken
    ? { queue: queues, token: config.dashboardToken, readOnly: config.dashboardReadOnly }
    : undefined
  const app = createApp({ config, deps: { store, logger, registry, dashboard } })
  const start = async () => {
    const layout = await checkQueueLayout(config.redis, { ...config, prefix: config.queuePrefix })
    logQueueLayout(logger, layout, config.reshardFrom)
  }
  return { app, registry, ready: () => store.ready(), start, close: () => store.close() }
}
