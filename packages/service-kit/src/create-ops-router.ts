import { Router } from 'express'
import type { Registry } from 'prom-client'
import { withTimeout } from './with-timeout'

export interface OpsRouterOptions {
  registry: Registry
  /** Resolves when the service's dependencies answer; rejects (with a reason) when they do not. */
  ready: () => Promise<void>
  /** Longest wait for `ready` before answering 503. */
  readyTimeoutMs?: number
}

/**
 * `GET /health` (liveness, no dependencies), `GET /ready` (its dependencies answer) and `GET /metrics`
 * (Prometheus text), as the service contract names them.
 */
export function createOpsRouter({ registry, ready, readyTimeoutMs = 2000 }: OpsRouterOptions): Router {
  const router = Router()
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' })
  })
  router.get('/ready', async (_req, res) => {
    try {
      await withTimeout(ready(), readyTimeoutMs, 'readiness check')
      res.json({ status: 'ready' })
    } catch (error) {
      res.status(503).json({ status: 'not ready', error: (error as Error).message })
    }
  })
  router.get('/metrics', async (_req, res) => {
    res.set('Content-Type', registry.contentType).send(await registry.metrics())
  })
  return router
}
