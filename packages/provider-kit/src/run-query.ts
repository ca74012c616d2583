import { SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api'
import { inSpan, type Logger } from '@pf/service-kit'
import {
  resolveDeliveryMechanism,
  type CallbackPayload,
  type DeliveryResult,
  type QueryEnvelope,
} from '@pf/schemas'
import { boundedText } from './bounded-text'
import type { SearchOutcome } from './define-endpoint'
import { ProviderError } from './errors'
import type { QueryMetrics } from './query-metrics'
import type { QueryPorts } from './query-ports'

export interface QueryDeps {
  ports: QueryPorts
  logger: Logger
  metrics: QueryMetrics
  /** Longest a whole delivery may take (`delivery.timeoutMs`); each request has its own time-out too. */
  deliveryTimeoutMs?: number
}

/** The whole-delivery limit's default: ten minutes. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 600_000

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
    // Its POST carries this span's traceparent (the adapters inject the active context).
    await inSpan('provider.callback', { attributes: { 'pf.status': payload.status } }, () =>
      ports.sendCallback(envelope, payload),
    )
    metrics.callbacks.inc({ outcome: 'sent' })
  } catch (error) {
    metrics.callbacks.inc({ outcome: 'failed' })
    logger.warn(
      { queryId: envelope.queryId, err: { message: boundedText(String((error as Error)?.message)) } },
      'callback could not be posted',
    )
  }
}

/** What a search is asked for: the mechanism it feeds, the signal that ends a delivery's reading, its span. */
export interface SearchRequest {
  mechanism: DeliveryResult['mechanism']
  signal: AbortSignal
  span: Span
}

/**
 * The records of a result as a stream, counting those the delivery reads (`recordCount`). A streamed result
 * is read up to its first record here, in the search stage: a store that cannot answer fails the search,
 * before any delivery has begun.
 */
async function counted(results: readonly unknown[] | AsyncIterable<unknown>) {
  const state = { count: 0 }
  if (Array.isArray(results)) return { records: results as readonly unknown[], state, close: async () => {} }
  const iterator = (results as AsyncIterable<unknown>)[Symbol.asyncIterator]()
  const first = await iterator.next()
  async function* records() {
    for (let next = first; !next.done; next = await iterator.next()) {
      state.count += 1
      yield next.value
    }
  }
  // Whatever the delivery read, the store's cursor (and its connection) is given back.
  return { records: records(), state, close: async () => void (await iterator.return?.()) }
}

/** Every record of a stream, for an inline answer (Node 20 has no `Array.fromAsync`). */
async function readAll(records: AsyncIterable<unknown>): Promise<unknown[]> {
  const all: unknown[] = []
  for await (const record of records) all.push(record)
  return all
}

/** Why a query's signal aborted: the whole-delivery limit (a `TimeoutError`), or the reason it was given. */
const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error && signal.reason.name !== 'TimeoutError'
    ? signal.reason
    : new Error('the delivery time-out passed')

/** Rejects once `signal` aborts: a search or a read that never settles still ends the query (failed). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal))
  let onAbort = () => {}
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

/**
 * A recovery conflict on a replica (SQLSTATE 40001, "canceling statement due to conflict with recovery")
 * cancels a long delivery cursor: the delivery is run once more (PostgreSQL docs, "Hot Standby", 27.4.2).
 */
const isRecoveryConflict = (error: unknown) => (error as { code?: unknown })?.code === '40001'

/**
 * Search and, for an outbound mechanism, delivery of the results within `delivery.timeoutMs`, or until `cancel`
 * aborts (the platform closed the connection): the signal ends the store's read, so a failed upload is aborted
 * before this rejects. A recovery conflict retries once.
 */
async function searchAndDeliver(
  envelope: QueryEnvelope,
  search: (request: SearchRequest) => SearchOutcome | Promise<SearchOutcome>,
  deps: QueryDeps,
  stage: { name: string },
  cancel: AbortSignal | undefined,
): Promise<{ outcome: SearchOutcome; recordCount: number; delivery: DeliveryResult }> {
  const mechanism = resolveDeliveryMechanism(envelope.delivery)
  for (let attempt = 1; ; attempt += 1) {
    stage.name = 'search'
    const { signal, release } = querySignal(deps.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS, cancel)
    try {
      // Called in this turn of the event loop (inSpan runs it at once): see the search router.
      const outcome = await untilAborted(
        inSpan('provider.search', {}, async (span) => search({ mechanism, signal, span })),
        signal,
      )
      if (mechanism === 'inline') {
        // An inline answer holds its records: a streamed result is read whole here (an endpoint bounds it).
        const results = Array.isArray(outcome.results)
          ? (outcome.results as readonly unknown[])
          : await untilAborted(readAll(outcome.results as AsyncIterable<unknown>), signal)
        return {
          outcome: { ...outcome, results },
          recordCount: results.length,
          delivery: { mechanism, reference: null, statusCode: null },
        }
      }
      const { records, state, close } = await counted(outcome.results)
      stage.name = 'delivery'
      try {
        const delivery = await inSpan(
          'provider.delivery',
          { attributes: { 'pf.mechanism': mechanism } },
          async (span) => {
            const delivered = await deps.ports.deliver(mechanism, envelope, records, signal)
            if (delivered.statusCode !== null)
              span.setAttribute('http.response.status_code', delivered.statusCode)
            return delivered
          },
        )
        const recordCount = Array.isArray(outcome.results) ? outcome.results.length : state.count
        return { outcome, recordCount, delivery }
      } finally {
        await close()
      }
    } catch (error) {
      if (attempt > 1 || !isRecoveryConflict(error)) throw error
      deps.logger.warn(
        { queryId: envelope.queryId },
        'delivery cursor cancelled by the replica: retrying once',
      )
    } finally {
      release()
    }
  }
}

/**
 * A query's signal: aborted once `limitMs` pass (a `TimeoutError`, as `AbortSignal.timeout` gives) or `cancel`
 * aborts. `release` ends both as the query ends: `AbortSignal.timeout` and `AbortSignal.any` held every query's
 * signals and timer for the whole-delivery limit (ten minutes by default), thousands of them in a busy minute.
 */
function querySignal(limitMs: number, cancel: AbortSignal | undefined) {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('the delivery time-out passed', 'TimeoutError')),
    limitMs,
  )
  timer.unref()
  const onCancel = () => controller.abort(cancel?.reason)
  if (cancel?.aborted) onCancel()
  else cancel?.addEventListener('abort', onCancel, { once: true })
  const release = () => {
    clearTimeout(timer)
    cancel?.removeEventListener('abort', onCancel)
  }
  return { signal: controller.signal, release }
}

/**
 * Runs a validated query in the spec's order: search, deliver, post the callback, then answer. Any exception
 * in search or delivery becomes a `failed` callback (recordCount 0, a generic error text: "delivery failed",
 * with the reason only for the provider's own refusals) and a 500 `{error, queryId}`; the callback is always
 * posted before the answer is returned. Traced: a `provider.query` span (under `parent`, the platform's
 * `traceparent` once its API key was checked) with `provider.search`, `provider.delivery` and `provider.callback`
 * children; its attributes are ids, counts and the failure's stage, never names, parameters or tokens.
 * `cancel` (the platform closed the connection) ends the search and the delivery like the whole-delivery limit.
 */
export function runQuery(
  endpoint: string,
  envelope: QueryEnvelope,
  search: (request: SearchRequest) => SearchOutcome | Promise<SearchOutcome>,
  deps: QueryDeps,
  parent?: Context,
  cancel?: AbortSignal,
): Promise<QueryAnswer> {
  const mechanism = resolveDeliveryMechanism(envelope.delivery)
  const attributes = { 'pf.query_id': envelope.queryId, 'pf.endpoint': endpoint, 'pf.mechanism': mechanism }
  // inSpan runs the query at once, so the search still starts in this turn of the event loop (see the router).
  return inSpan('provider.query', { kind: SpanKind.SERVER, parent, attributes }, (span) =>
    answerQuery(endpoint, envelope, search, deps, span, cancel),
  )
}

async function answerQuery(
  endpoint: string,
  envelope: QueryEnvelope,
  search: (request: SearchRequest) => SearchOutcome | Promise<SearchOutcome>,
  deps: QueryDeps,
  span: Span,
  cancel: AbortSignal | undefined,
): Promise<QueryAnswer> {
  const { queryId } = envelope
  const mechanism = resolveDeliveryMechanism(envelope.delivery)
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const stopTimer = deps.metrics.queryDuration.startTimer({ endpoint })
  const stage = { name: 'search' }
  try {
    const { outcome, recordCount, delivery } = await searchAndDeliver(envelope, search, deps, stage, cancel)
    const { results } = outcome
    const truncated = typeof outcome.truncated === 'function' ? outcome.truncated() : outcome.truncated
    const fields = typeof outcome.fields === 'function' ? outcome.fields() : outcome.fields
    const executionTimeMs = elapsed()
    span.setAttribute('pf.record_count', recordCount)
    await sendCallback(
      envelope,
      { queryId, status: 'delivered', recordCount, executionTimeMs, delivery: { mechanism } },
      deps,
    )
    deps.metrics.queries.inc({ endpoint, mechanism, status: 'delivered' })
    // Never cut silently: when a limit left matches out, the answer says so (`truncated: true`); otherwise it
    // has the spec's fields, and those the search adds (screening: how many matched in all, the list versions).
    // The search's fields first: one named like a protocol field (`queryId`, `recordCount`) never replaces it.
    const base = {
      ...fields,
      queryId,
      recordCount,
      executionTimeMs,
      ...(truncated ? { truncated: true } : {}),
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
    const message =
      error instanceof ProviderError ? `${stage.name} failed: ${error.message}` : `${stage.name} failed`
    // The stage and the error's class only: a message may quote an address or a list's source.
    span.setAttributes({
      'pf.failure_reason': `${stage.name} failed`,
      'error.type': (error as Error)?.name ?? 'Error',
      'pf.record_count': 0,
    })
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${stage.name} failed` })
    deps.logger.warn(
      { queryId, endpoint, err: { message: boundedText((error as Error)?.message ?? String(error)) } },
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
