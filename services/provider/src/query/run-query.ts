import type { S3Client } from '@aws-sdk/client-s3'
import type { AxiosInstance } from 'axios'
import type { Counter, Histogram } from 'prom-client'
import type { Logger } from '@pf/service-kit'
import { resolveDeliveryMechanism, type DeliveryResult, type QueryEnvelope } from '@pf/schemas'
import { deliverByWebhook } from '../delivery/deliver-by-webhook'
import { deliverToS3 } from '../delivery/deliver-to-s3'
import { postCallback } from '../delivery/post-callback'

export interface QueryDeps {
  http: AxiosInstance
  s3: S3Client
  defaultBucket: string
  outbound: { allowPrivate: boolean; timeoutMs: number }
  logger: Logger
  metrics: {
    queries: Counter<'endpoint' | 'mechanism' | 'status'>
    duration: Histogram<'endpoint'>
    callbacks: Counter<'outcome'>
  }
}

export interface QueryAnswer {
  status: 200 | 500
  body: Record<string, unknown>
}

async function deliver(
  envelope: QueryEnvelope,
  results: readonly unknown[],
  deps: QueryDeps,
): Promise<DeliveryResult> {
  const mechanism = resolveDeliveryMechanism(envelope.delivery)
  switch (mechanism) {
    case 'pf_s3_sync':
      return deliverToS3(deps.s3, envelope.delivery, envelope.queryId, deps.defaultBucket, results)
    case 'webhook':
      return deliverByWebhook(deps.http, envelope.delivery, results, deps.outbound)
    case 'inline':
      return { mechanism, reference: null, statusCode: null }
  }
}

/**
 * Runs a validated query in the spec's order: search, deliver, post the callback, then answer. Any exception
 * in search or delivery becomes a `failed` callback (recordCount 0, the error text) and a 500
 * `{error, queryId}`; the callback is always posted before the answer is returned.
 */
export async function runQuery(
  endpoint: 'companies' | 'sanctions',
  envelope: QueryEnvelope,
  search: () => unknown[],
  deps: QueryDeps,
): Promise<QueryAnswer> {
  const { queryId } = envelope
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const stopTimer = deps.metrics.duration.startTimer({ endpoint })
  let stage = 'search'
  try {
    const results = search()
    stage = 'delivery'
    const delivery = await deliver(envelope, results, deps)
    const executionTimeMs = elapsed()
    await postCallback(
      deps.http,
      envelope,
      {
        queryId,
        status: 'delivered',
        recordCount: results.length,
        executionTimeMs,
        delivery: { mechanism: delivery.mechanism },
      },
      { ...deps, timeoutMs: deps.outbound.timeoutMs, counter: deps.metrics.callbacks },
    )
    deps.metrics.queries.inc({ endpoint, mechanism: delivery.mechanism, status: 'delivered' })
    const base = { queryId, recordCount: results.length, executionTimeMs }
    return {
      status: 200,
      body:
        delivery.mechanism === 'inline'
          ? { ...base, results }
          : { ...base, delivery: { mechanism: delivery.mechanism, reference: delivery.reference ?? '' } },
    }
  } catch (error) {
    const executionTimeMs = elapsed()
    const message = `${stage} failed: ${(error as Error)?.message ?? String(error)}`
    deps.logger.warn({ queryId, endpoint, err: { message } }, 'query failed')
    await postCallback(
      deps.http,
      envelope,
      { queryId, status: 'failed', recordCount: 0, executionTimeMs, error: message },
      { ...deps, timeoutMs: deps.outbound.timeoutMs, counter: deps.metrics.callbacks },
    )
    deps.metrics.queries.inc({
      endpoint,
      mechanism: resolveDeliveryMechanism(envelope.delivery),
      status: 'failed',
    })
    return { status: 500, body: { error: message, queryId } }
  } finally {
    stopTimer()
  }
}
