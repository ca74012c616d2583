import { Counter, Histogram, type Registry } from 'prom-client'

/** Every metric of the exchange, on the app's own registry (Node's defaults come with the registry). */
export function createExchangeMetrics(registry: Registry) {
  return {
    outcomes: new Counter({
      name: 'pf_exchange_total',
      help: 'Exchanges by outcome: warm (grant only), cold (full flow), invalid_token, idp_error, idp_unavailable',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'pf_exchange_duration_seconds',
      help: 'Time of successful exchanges, by path',
      labelNames: ['path'] as const,
      registers: [registry],
    }),
  }
}

export type ExchangeMetrics = ReturnType<typeof createExchangeMetrics>
