import { Counter, Histogram, type Registry } from 'prom-client'

/** The query flow's metrics, on the provider's registry (a provider adds its own beside them). */
export function createQueryMetrics(registry: Registry) {
  return {
    queries: new Counter({
      name: 'pf_provider_queries_total',
      help: 'Queries run, by endpoint, delivery mechanism and outcome (delivered, failed)',
      labelNames: ['endpoint', 'mechanism', 'status'] as const,
      registers: [registry],
    }),
    queryDuration: new Histogram({
      name: 'pf_provider_query_duration_seconds',
      help: 'Search, delivery and callback of one query',
      labelNames: ['endpoint'] as const,
      registers: [registry],
    }),
    callbacks: new Counter({
      name: 'pf_provider_callbacks_total',
      help: 'Status callbacks, by outcome (sent, failed)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  }
}

export type QueryMetrics = ReturnType<typeof createQueryMetrics>
