import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { ListInfo } from './lists/sanctions-lists'

/**
 * Every metric of the provider, on the app's own registry (Node's defaults come with the registry); `lists`
 * names the sanctions lists in use, read at each scrape.
 */
export function createProviderMetrics(registry: Registry, lists: () => readonly ListInfo[] = () => []) {
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
    listRefreshes: new Counter({
      name: 'pf_provider_list_refreshes_total',
      help: 'Sanctions list refreshes, by outcome (ok; failed: the previous lists stay in use)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    listAge: new Gauge({
      name: 'pf_provider_list_age_seconds',
      help: 'Time since each sanctions list in use was loaded: grows past the refresh interval when refreshes fail',
      labelNames: ['list'] as const,
      registers: [registry],
      collect() {
        // Lists a refresh dropped leave the gauge with it.
        this.reset()
        for (const { name, loadedAt } of lists())
          this.set({ list: name }, Math.max(0, (Date.now() - Date.parse(loadedAt)) / 1000))
      },
    }),
  }
}

export type ProviderMetrics = ReturnType<typeof createProviderMetrics>
