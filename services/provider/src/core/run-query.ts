import type { Logger } from '@pf/service-kit'
import {
  resolveDeliveryMechanism,
  type CallbackPayload,
  type DeliveryResult,
  type QueryEnvelope,
} from '@pf/schemas'
import { ProviderError } from '../errors'
import type { ProviderMetrics } from '../metrics'
import type { QueryPorts } from './query-ports'

export type SearchEndpoint = 'companies' | 'sanctions'

export interface QueryDeps {
  ports: QueryPorts
  logger: Logger
  metrics: ProviderMetrics
}

/**
 * What a search gives: its results, whether `limit` cut them (and, for screening, how many matched in all),
 * and for screening the versions of the lists it searched.
 */
export interface SearchOutcome {
  results: unknown[]
  truncated: boolean
  totalMatches?: number
  lists?: { name: string; sha256: string }[]
}

export interface QueryAnswer {
  status: 200 | 500
  body: Record<string, unknown>
}

/** The spec's rule for callbacks: a failure to post is logged and never changes the HTTP answer. */
async function sendCallback(
  envelope: QueryEnvelope,
  payload: CallbackPayload,
  { ports, logger, metrics }: QueryDeps,
) {
  try {
    await ports.sendCallback(envelope, payload)
    metrics.callbacks.inc({ outcome: 'sent' })
  } catch (error) {
    metrics.callbacks.inc({ outcome: 'failed' })
    logger.warn(
      { queryId: envelope.queryId, err: { message: (error as Error).message } },
      'callback could not be posted',
    )
  }
}

/**
 * Runs a validated query in the spec's order: search, deliver, post the callback, then answer. Any exception
 * in search or delivery becomes a `failed` callback (recordCount 0, a generic error text: "delivery failed",
 * with the reason only for the provider's own refusals) and a 500 `{error, queryId}`; the callback is always
 * posted before the answer is returned.
 */
export async function runQuery(
  endpoint: SearchEndpoint,
  envelope: QueryEnvelope,
  search: () => SearchOutcome,
  deps: QueryDeps,
): Promise<QueryAnswer> {
  const { queryId } = envelope
  const mechanism = resolveDeliveryMechanism(envelope.delivery)
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const stopTimer = deps.metrics.queryDuration.startTimer({ endpoint })
  let stage = 'search'
  try {
    const { results, truncated, totalMatches, lists } = search()
    stage = 'delivery'
    const delivery: DeliveryResult =
      mechanism === 'inline'
        ? { mechanism, reference: null, statusCode: null }
        : await deps.ports.deliver(mechanism, envelope, results)
    const executionTimeMs = elapsed()
    await sendCallback(
      envelope,
      { queryId, status: 'delivered', recordCount: results.length, executionTimeMs, delivery: { mechanism } },
      deps,
    )
    deps.metrics.queries.inc({ endpoint, mechanism, status: 'delivered' })
    // Never cut silently: when `limit` left matches out, the answer says so (`truncated: true`, and for
    // screening how many entries matched in all); otherwise it has the spec's fields. Screening answers also
    // name the list versions they were computed on.
    const base = {
      queryId,
      recordCount: results.length,
      executionTimeMs,
      ...(truncated ? { truncated, ...(totalMatches === undefined ? {} : { totalMatches }) } : {}),
      ...(lists ? { lists } : {}),
    }
    return {
      status: 200,
      body:
        mechanism === 'inline'
          ? { ...base, results }
          : { ...base, delivery: { mechanism, reference: delivery.reference ?? '' } },
    }
  } catch (error) {
    const executionTimeMs = elapsed()
    // Only our own refusals are told to the caller; a dependency's text (addresses, resolver answers, store
    // errors) stays in the log.
    const message = error instanceof ProviderError ? `${stage} failed: ${error.message}` : `${stage} failed`
    deps.logger.warn(
      { queryId, endpoint, err: { message: (error as Error)?.message ?? String(error) } },
      'query failed',
    )
    await sendCallback(
      envelope,
      { queryId, status: 'failed', recordCount: 0, executionTimeMs, error: message },
      deps,
    )
    deps.metrics.queries.inc({ endpoint, mechanism, status: 'failed' })
    return { status: 500, body: { error: message, queryId } }
  } finally {
    stopTimer()
  }
}
