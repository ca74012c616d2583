import { Router } from 'express'
import type { Registry } from 'prom-client'
import type { Logger } from './create-logger'
import { withTimeout } from './with-timeout'

export interface OpsRouterOptions {
  registry: Registry
  /**
   * Resolves when the service's dependencies answer (optionally with details for the answer, e.g. the data it
   * serves); rejects (with a reason) when they do not.
   */
  ready: () => Promise<void | Record<string, unknown>>
  /** Longest wait for `ready` before answering 503. */
  readyTimeoutMs?: number
  /** Where the reason of a failed readiness check goes: the answer itself says only that it failed. */
  logger?: Logger
}

/**
 * `GET /health` (liveness, no dependencies), `GET /ready` (its dependencies answer) and `GET /metrics`
 * (Prometheus text), as the service contract names them. `/ready` never tells why: addresses and resolver
 * answers in a reason would be an oracle for anyone who can reach it; the reason is logged.
 */
export function createOpsRouter({
  registry,
  ready,
  readyTimeoutMs = 2000,
  logger,
}: OpsRouterOptions): Router {
  const router = Router()
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' })
  })
  router.get('/ready', async (_req, res) => {
    try {
      const details = await withTimeout(ready(), readyTimeoutMs, 'readiness check')
      res.json({ status: 'ready', ...(details ?? {}) })
    } catch (error) {
      logger?.warn({ err: { message: (error as Error).message } }, 'readiness check failed')
      res.status(503).json({ status: 'not ready', error: 'a dependency does not answer' })
    }
  })
  router.get('/metrics', async (_req, res) => {
    res.set('Content-Type', registry.contentType).send(await registry.metrics())
  })
  return router
}
