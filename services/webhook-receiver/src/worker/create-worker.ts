import type { Express } from 'express'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import type { WebhookHandlers } from '@pf/schemas'
import type { WorkerConfig } from '../config'
import { createWorkerMetrics } from '../metrics'
import { checkQueueLayout, logQueueLayout, openWorkerConnection, type EventConsumer } from '../queue'
import { createApp } from './create-app'
import { createWebhookWorker } from './create-webhook-worker'

/**
 * The worker as `serve` runs it: `app` serves its ops endpoints (`/health`, `/ready`: Redis answers and no
 * shard's consumer has stopped for good, `/metrics`); `start()` checks the queue layout Redis records against
 * `QUEUE_SHARDS` (a mismatch fails the start), then takes jobs from every shard; `close()` waits for the jobs in
 * progress, then disconnects from Redis.
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
  const metrics = createWorkerMetrics(registry)
  let worker: EventConsumer | undefined
  const ready = async () => {
    // A stopped consumer takes nothing more while Redis still answers: not ready (logged at error when it stopped).
    const stopped = worker?.stopped()
    if (stopped) throw new Error(`the worker stopped taking jobs: ${stopped.message}`)
    await connection.ping()
  }
  return {
    app: createApp({ config, deps: { registry, ready, logger } }),
    registry,
    ready,
    async start() {
      const layout = await checkQueueLayout(config.redis, { ...config, prefix: config.queuePrefix })
      logQueueLayout(logger, layout, config.reshardFrom)
      worker = createWebhookWorker({
        ...config,
        connection,
        prefix: config.queuePrefix,
        waitReplicas: config.redis.waitReplicas,
        handlers,
        logger,
        metrics,
      })
    },
    async close() {
      await worker?.close() // waits for the jobs in progress
      connection.disconnect()
    },
  }
}
