import { Counter, Gauge, type Registry } from 'prom-client'
import type { ListInfo } from './lists/sanctions-lists'

/**
 * The provider's own metrics, beside the kit's query metrics on the same registry: list refreshes, and the age
 * of each sanctions list in use (`lists`, read at each scrape).
 */
export function createListMetrics(registry: Registry, lists: () => readonly ListInfo[] = () => []) {
  return {
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
