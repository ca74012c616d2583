import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import express, { type Express } from 'express'
import type { Registry } from 'prom-client'
import {
  createErrorHandler,
  createOpsRouter,
  openApiRoute,
  type Logger,
  type OpsSettings,
} from '@pf/service-kit'
import { RECEIVER_ERRORS } from '../http-status'
import { createReceiverMetrics } from '../metrics'
import { createQueueDashboard, type EventStore, type QueueDashboardOptions } from '../queue'
import { createWebhookHandler } from './create-webhook-handler'
import { receiverOpenApi } from './openapi-document'

export interface ReceiverAppInput {
  config: {
    path: string
    secrets: readonly [string, ...string[]]
    maxBodyBytes: number
    maxAgeSeconds: number
    ops?: OpsSettings
  }
  deps: {
    store: EventStore
    logger: Logger
    registry: Registry
    /** The queue and token of the bull-board dashboard (read-only unless `readOnly` is false); none without it. */
    dashboard?: QueueDashboardOptions
    /** The clock, in ms since the epoch (tests of events with a fixed time). */
    clock?: () => number
  }
}

/** The receiver's request listener, and the Express app behind it (everything but the webhook itself). */
export type ReceiverApp = RequestListener & { express: Express }

/**
 * The receiver's app: `POST {path}` (the webhook) is answered before Express routes anything, the hot path,
 * refusals included (from the same error table as the app's error handler); everything else goes through
 * Express: `/health`, `/ready` (Redis answers and has the replicas the store waits for), `/metrics`,
 * `/openapi.json`, the dashboard, 404s, and the one error handler.
 *
 * @example
 * const app = createApp({ config, deps: { store, logger, registry: createMetricsRegistry('pf_receiver') } })
 * await listen(app, { port: 3001 })
 */
export function createApp({ config, deps }: ReceiverAppInput): ReceiverApp {
  const { store, logger, registry, dashboard, clock } = deps
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  const metrics = createReceiverMetrics(registry, store)
  app.use(createOpsRouter({ registry, ready: () => store.ready(), logger, ops: config.ops }))
  app.get('/openapi.json', openApiRoute(receiverOpenApi(config.path)))
  if (dashboard) app.use(createQueueDashboard(dashboard))
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' })
  })
  app.use(createErrorHandler({ logger, table: RECEIVER_ERRORS }))

  const webhook = createWebhookHandler({ ...config, clock, store, metrics, logger })
  const isWebhook = (req: IncomingMessage) => {
    if (req.method !== 'POST') return false
    const url = req.url ?? ''
    const end = url.indexOf('?')
    const path = end === -1 ? url : url.slice(0, end)
    return path === config.path || path === `${config.path}/`
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (isWebhook(req)) webhook(req, res)
    else app(req, res)
  }
  return Object.assign(listener, { express: app })
}
