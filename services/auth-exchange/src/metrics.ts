import { Counter, Histogram, type Registry } from 'prom-client'

/** Every metric of the exchange, on the app's own registry (Node's defaults come with the registry). */
export function createExchangeMetrics(registry: Registry) {
  return {
    outcomes: new Counter({
      name: 'pf_exchange_total',
      help: 'Exchanges by outcome: warm, cold, invalid_token, idp_error, idp_unavailable, account_conflict, ...',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'pf_exchange_duration_seconds',
      help: 'Time of successful exchanges, by path',
      labelNames: ['path'] as const,
      registers: [registry],
    }),
    idpErrors: new Counter({
      name: 'pf_exchange_idp_errors_total',
      help: 'Exchanges the identity provider failed, by error code and its HTTP status (none: no answer)',
      labelNames: ['code', 'status'] as const,
      registers: [registry],
    }),
    adoptions: new Counter({
      name: 'pf_exchange_account_adoptions_total',
      help: 'Existing identity-provider accounts adopted (their sessions ended); refusals are outcome account_conflict',
      registers: [registry],
    }),
  }
}

export type ExchangeMetrics = ReturnType<typeof createExchangeMetrics>
