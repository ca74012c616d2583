import express from 'express'
import type { Registry } from 'prom-client'
import { listen, type RunningServer } from './listen'
import { metricsRoute } from './metrics-route'
import type { ServerLimits } from './server-limits'

export interface ListenMetricsOptions {
  /** `METRICS_PORT`; undefined: no server of its own (the ops router serves `/metrics` on the main port). */
  port: number | undefined
  host?: string
  limits?: Partial<ServerLimits>
}

/**
 * With `METRICS_PORT` set, serves `GET /metrics` (and nothing else) on that port, so that a manifest can
 * scrape it while the public Service exposes only the main port; unset, resolves undefined.
 *
 * @example
 * const metrics = await listenMetrics(provider.registry, { port: config.ops.metricsPort, limits: config.server })
 */
export async function listenMetrics(
  registry: Registry,
  { port, host, limits }: ListenMetricsOptions,
): Promise<RunningServer | undefined> {
  if (port === undefined) return undefined
  const app = express()
  app.disable('x-powered-by')
  app.get('/metrics', metricsRoute(registry))
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }))
  return listen(app, { port, host, limits })
}
