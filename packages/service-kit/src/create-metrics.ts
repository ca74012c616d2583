import { collectDefaultMetrics, Registry } from 'prom-client'

/**
 * A Prometheus registry of its own (so several apps can live in one test process) with Node's default
 * metrics, prefixed by the service name.
 */
export function createMetricsRegistry(prefix: string): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: `${prefix}_` })
  return registry
}
