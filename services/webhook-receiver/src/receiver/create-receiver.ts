import type { Registry } from 'prom-client'
import { createMetricsRegistry, type Logger } from '@pf/service-kit'
import type { ReceiverConfig } from '../config'
import { createEventStore } from '../queue'
import { createApp, type ReceiverApp } from './create-app'

export interface Receiver {
  app: ReceiverApp
  /** What `/metrics` shows (on `METRICS_PORT` when set). */
  registry: Registry
  /** Resolves when Redis answers and has the replicas `REDIS_WAIT_REPLICAS` asks for. */
  ready(): Promise<void>
  /** Closes the event store (its Redis connection); the HTTP server is the caller's. */
  close(): Promise<void>
}

/** The whole receiver from its configuration: the BullMQ event store, the dashboard if configured, the app. */
export function createReceiver(
  config: ReceiverConfig,
  { logger, registry = createMetricsRegistry('pf_receiver') }: { logger: Logger; registry?: Registry },
): Receiver {
  const { store, queue } = createEventStore({ ...config, prefix: config.queuePrefix, logger })
  const dashboard = config.dashboardToken
    ? { queue, token: config.dashboardToken, readOnly: config.dashboardReadOnly }
    : undefined
  const app = createApp({ config, store, logger, registry, dashboard })
  return { app, registry, ready: () => store.ready(), close: () => store.close() }
}
