import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { ExpressAdapter } from '@bull-board/express'
import { Router, type RequestHandler } from 'express'
import { createSecretCheck } from '@pf/service-kit'
import { bullmqQueueOf, type WebhookQueue } from '../webhook-queue'

export const DASHBOARD_PATH = '/admin/queues'

/** HTTP Basic auth where the password is the token (any user name), compared in constant time. */
function requireToken(token: string): RequestHandler {
  const isToken = createSecretCheck([token])
  return (req, res, next) => {
    const encoded = /^Basic\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
    const password = encoded
      ? Buffer.from(encoded, 'base64').toString('utf8').split(':').slice(1).join(':')
      : undefined
    if (isToken(password)) return next()
    res
      .set('WWW-Authenticate', 'Basic realm="pf queues"')
      .status(401)
      .json({ error: 'dashboard token required' })
  }
}

export interface QueueDashboardOptions {
  queue: WebhookQueue
  /** `QUEUE_DASHBOARD_TOKEN`. */
  token: string
  /** `QUEUE_DASHBOARD_READ_ONLY`: shows, never retries, removes, cleans, pauses or adds (405). */
  readOnly?: boolean
}

/**
 * bull-board on the webhook queue at `/admin/queues`, behind `QUEUE_DASHBOARD_TOKEN` (HTTP Basic, the token as
 * password). Off unless a token is configured; read-only unless `readOnly` is false. Removing a job there no
 * longer forgets its webhookId (the dedup marker does not depend on the job), but a removed job is an event no
 * handler will see: operators who want that power say so with `QUEUE_DASHBOARD_READ_ONLY=false`.
 */
export function createQueueDashboard({ queue, token, readOnly = true }: QueueDashboardOptions): Router {
  const adapter = new ExpressAdapter()
  adapter.setBasePath(DASHBOARD_PATH)
  createBullBoard({
    queues: [new BullMQAdapter(bullmqQueueOf(queue), { readOnlyMode: readOnly })],
    serverAdapter: adapter,
  })
  const router = Router()
  router.use(DASHBOARD_PATH, requireToken(token), adapter.getRouter())
  return router
}
