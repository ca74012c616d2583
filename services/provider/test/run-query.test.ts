import { Registry } from 'prom-client'
import type { CallbackPayload, QueryEnvelope } from '@pf/schemas'
import { createLogger } from '@pf/service-kit'
import type { QueryPorts } from '../src/core/query-ports'
import { runQuery } from '../src/core/run-query'
import { createProviderMetrics } from '../src/metrics'

// The query flow without sockets: ports are plain functions that record what happened, in order.
function world({ deliverFails = false, callbackFails = false } = {}) {
  const steps: string[] = []
  const callbacks: CallbackPayload[] = []
  const ports: QueryPorts = {
    async deliver(mechanism) {
      steps.push(`deliver ${mechanism}`)
      if (deliverFails) throw new Error('bucket not found')
      return { mechanism, reference: mechanism === 'pf_s3_sync' ? 's3://b/q.json' : null, statusCode: 202 }
    },
    async sendCallback(_envelope, payload) {
      steps.push(`callback ${payload.status}`)
      callbacks.push(payload)
      if (callbackFails) throw new Error('ECONNREFUSED')
    },
  }
  const deps = {
    ports,
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: createProviderMetrics(new Registry()),
  }
  const search = () => {
    steps.push('search')
    return { results: [{ name: 'ACME' }, { name: 'ACME 2' }], truncated: false }
  }
  return { steps, callbacks, deps, search }
}

const envelope = (mechanism?: string): QueryEnvelope =>
  ({
    queryId: 'q-1',
    callbackUrl: 'https://platform.example/cb',
    callbackToken: 't',
    ...(mechanism ? { delivery: { mechanism } } : {}),
  }) as QueryEnvelope

describe('runQuery (spec, "Query processing")', () => {
  it('searches, delivers, posts the callback, then answers, in that order', async () => {
    const { steps, callbacks, deps, search } = world()
    const answer = await runQuery('companies', envelope('pf_s3_sync'), search, deps)
    expect(steps).toEqual(['search', 'deliver pf_s3_sync', 'callback delivered'])
    expect(callbacks[0]).toMatchObject({
      queryId: 'q-1',
      recordCount: 2,
      delivery: { mechanism: 'pf_s3_sync' },
    })
    expect(answer).toMatchObject({
      status: 200,
      body: {
        queryId: 'q-1',
        recordCount: 2,
        delivery: { mechanism: 'pf_s3_sync', reference: 's3://b/q.json' },
      },
    })
  })

  it('answers inline without a delivery port when the mechanism is absent', async () => {
    const { steps, deps, search } = world()
    const answer = await runQuery('companies', envelope(), search, deps)
    expect(steps).toEqual(['search', 'callback delivered'])
    expect(answer.body).toMatchObject({ results: [{ name: 'ACME' }, { name: 'ACME 2' }] })
  })

  it('turns a delivery failure into a failed callback (recordCount 0, a generic error) and a 500 {error, queryId}', async () => {
    const { steps, callbacks, deps, search } = world({ deliverFails: true })
    const answer = await runQuery('sanctions', envelope('webhook'), search, deps)
    expect(steps).toEqual(['search', 'deliver webhook', 'callback failed'])
    expect(callbacks[0]).toMatchObject({
      status: 'failed',
      recordCount: 0,
      error: 'delivery failed',
    })
    expect(answer).toEqual({
      status: 500,
      body: { error: 'delivery failed', queryId: 'q-1' },
    })
  })

  it('answers as it would have when the callback cannot be posted (spec: a failure to post never changes the response)', async () => {
    const { deps, search } = world({ callbackFails: true })
    const answer = await runQuery('companies', envelope(), search, deps)
    expect(answer.status).toBe(200)
    expect(await deps.metrics.callbacks.get()).toMatchObject({
      values: [{ labels: { outcome: 'failed' }, value: 1 }],
    })
  })
})
