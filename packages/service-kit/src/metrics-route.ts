import type { RequestHandler } from 'express'
import type { Registry } from 'prom-client'

/** `GET /metrics`: the registry in Prometheus' text format. */
export function metricsRoute(registry: Registry): RequestHandler {
  return async (_req, res) => {
    res.set('Content-Type', registry.contentType).send(await registry.metrics())
  }
}
