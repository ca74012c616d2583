import express, { type Express } from 'express'
import type { Queue } from 'bullmq'
import type { Registry } from 'prom-client'
import { createErrorHandler, createOpsRouter, openApiRoute, type Logger } from '@pf/service-kit'
import { RECEIVER_HTTP_STATUS } from './http-status'
import { receiverOpenApi } from './openapi-document'
import type { EventStore } from './core/event-store'
import { createReceiverMetrics } from './metrics'
import { createQueueDashboard } from './routes/create-queue-dashboard'
import { createWebhookRouter } from './routes/create-webhook-router'

export interface ReceiverDeps {
  /** The queue and token of the bull-board dashboard; no dashboard without it. */
  dashboard?: { queue: Queue; token: string }
  config: { path: string; secrets: readonly [string, ...string[]]; maxBodyBytes: number }
  store: EventStore
  logger: Logger
  registry: Registry
}

/**
 * The receiver's Express app: the webhook route plus `/health`, `/ready` (Redis answers) and `/metrics`.
 *
 * @example
 * const app = createApp({ config, store, logger, registry: createMetricsRegistry('pf_receiver') })
 */
export function createApp({ config, store, logger, registry, dashboard }: ReceiverDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  const metrics = createReceiverMetrics(registry, store)
  // The webhook route first: it is the hot path, and should not walk the ops routes on every event.
  app.use(createWebhookRouter({ ...config, store, metrics, logger }))
  app.use(createOpsRouter({ registry, ready: () => store.ping(), logger }))
  app.get('/openapi.json', openApiRoute(receiverOpenApi(config.path)))
  if (dashboard) app.use(createQueueDashboard(dashboard.queue, dashboard.token))
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' })
  })
  app.use(createErrorHandler({ logger, statusByCode: RECEIVER_HTTP_STATUS }))
  return app
}
