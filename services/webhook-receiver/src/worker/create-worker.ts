import express, { type Express } from 'express'
import type { Registry } from 'prom-client'
import { createMetricsRegistry, createOpsRouter, type Logger } from '@pf/service-kit'
import type { WebhookHandlers } from '@pf/schemas'
import type { WorkerConfig } from '../config'
import { createWorkerMetrics } from '../metrics'
import { openWorkerConnection } from '../queue'
import { createWebhookWorker } from './create-webhook-worker'

export interface WebhookWorkerService {
  /** The worker's ops endpoints: `/health`, `/ready` (Redis answers), `/metrics`. */
  app: Express
  /** What `/metrics` shows (on `METRICS_PORT` when set). */
  registry: Registry
  ready(): Promise<void>
  /** Waits for the jobs in progress, then disconnects from Redis. */
  close(): Promise<void>
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
    handlers,
    logger,
    metrics: createWorkerMetrics(registry),
  })
  const ready = async () => void (await connection.ping())
  const app = express()
  app.use(createOpsRouter({ registry, ready, logger, ops: config.ops }))
  return {
    app,
    registry,
    ready,
    async close() {
      await worker.close() // waits for the jobs in progress
      connection.disconnect()
    },
  }
}
