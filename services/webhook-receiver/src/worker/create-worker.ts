import type { Express } from 'express'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import type { WebhookHandlers } from '@pf/schemas'
import type { WorkerConfig } from '../config'
import { createWorkerMetrics } from '../metrics'
import { openWorkerConnection } from '../queue'
import { createApp } from './create-app'
import { createWebhookWorker } from './create-webhook-worker'

/**
 * The worker as `serve` runs it: `app` serves its ops endpoints (`/health`, `/ready`: Redis answers,
 * `/metrics`); `start()` has nothing to do (it takes jobs from the moment it is made); `close()` waits for the
 * jobs in progress, then disconnects from Redis.
 */
export interface WebhookWorkerService extends RunnableService {
  app: Express
}

/** The whole worker from its configuration and handlers: Redis connection, BullMQ worker, ops app. */
export function createWorker(
  config: WorkerConfig,
  { logger, handlers }: { logger: Logger; handlers: WebhookHandlers },
): WebhookWorkerService {
  const connection = openWorkerConnection(config.redis, logger)
  const registry = createMetricsRegistry('pf_worker')
  const worker = createWebhookWorker({
    ...config,
    connection,
    prefix: config.queuePrefix,
    waitReplicas: config.redis.waitReplicas,
    handlers,
    logger,
    metrics: createWorkerMetrics(registry),
  })
  const ready = async () => void (await connection.ping())
  return {
    app: createApp({ config, deps: { registry, ready, logger } }),
    registry,
    ready,
    start: async () => {},
    async close() {
      await worker.close() // waits for the jobs in progress
      connection.disconnect()
    },
  }
}
