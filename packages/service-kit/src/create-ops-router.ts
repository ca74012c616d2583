import { Router } from 'express'
import type { Registry } from 'prom-client'
import { createReadinessCheck } from './create-readiness-check'
import type { Logger } from './create-logger'
import { metricsRoute } from './metrics-route'
import { DEFAULT_OPS_SETTINGS, type OpsSettings } from './ops-settings'
import { withTimeout } from './with-timeout'

export interface OpsRouterOptions {
  registry: Registry
  /** Resolves when the service's dependencies answer; rejects (with a reason) when they do not. */
  ready: () => Promise<unknown>
  /** Longest wait for `ready` before answering 503. */
  readyTimeoutMs?: number
  /** `READY_CACHE_MS` and `METRICS_PORT` (with a metrics port, `/metrics` is not served here). */
  ops?: OpsSettings
  /** Where the reason of a failed readiness check goes: the answer itself says only that it failed. */
  logger?: Logger
  /** The readiness cache's clock (tests). */
  now?: () => number
}

/**
 * `GET /health` (liveness, no dependencies), `GET /ready` (its dependencies answer) and, unless it has a port
 * of its own, `GET /metrics` (Prometheus text), as the service contract names them. Both answer `{status}`
 * and nothing else: list sources, paths, counts or a reason would tell anyone who can reach the port about
 * the inside (a failed check's reason is logged, once per check). `/ready` reaches the dependencies at most
 * once per `READY_CACHE_MS`, however often it is called.
 */
export function createOpsRouter({
  registry,
  ready,
  readyTimeoutMs = 2000,
  ops = DEFAULT_OPS_SETTINGS,
  logger,
  now,
}: OpsRouterOptions): Router {
  const router = Router()
  const check = createReadinessCheck(
    async () => {
      try {
        await withTimeout(ready(), readyTimeoutMs, 'readiness check')
      } catch (error) {
        logger?.warn({ err: { message: (error as Error).message } }, 'readiness check failed')
        throw error
      }
    },
    { cacheMs: ops.readyCacheMs, now },
  )
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' })
  })
  router.get('/ready', async (_req, res) => {
    try {
      await check()
      res.json({ status: 'ready' })
    } catch {
      res.status(503).json({ status: 'not ready' })
    }
  })
  if (ops.metricsPort === undefined) router.get('/metrics', metricsRoute(registry))
  return router
}
