import { Writable } from 'node:stream'
import { Registry } from 'prom-client'
import type { CallbackPayload, QueryEnvelope } from '@pf/schemas'
import { createLogger } from '@pf/service-kit'
import type { QueryPorts } from '../src/query-ports'
import { MAX_LOGGED_CHARS } from '../src/bounded-text'
import { runQuery } from '../src/run-query'
import { createQueryMetrics } from '../src/query-metrics'

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
    metrics: createQueryMetrics(new Registry()),
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

  it('runs a delivery once more when a replica cancels its cursor for a recovery conflict (SQLSTATE 40001), only once', async () => {
    const { steps, callbacks, deps } = world()
    let reads = 0
    let cancelled = 1 // the reads a recovery conflict cancels
    async function* cancelledOnce() {
      reads += 1
      yield { name: 'ACME' }
      if (reads <= cancelled)
        throw Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' })
      yield { name: 'ACME 2' }
    }
    deps.ports.deliver = async (mechanism, _envelope, records) => {
      steps.push(`deliver ${mechanism}`)
      for await (const record of records) void record
      return { mechanism, reference: 's3://b/q.json', statusCode: null }
    }
    const streamed = () => ({ results: cancelledOnce(), truncated: false })
    const answer = await runQuery('companies', envelope('pf_s3_sync'), streamed, deps)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ recordCount: 2 })
    expect(steps).toEqual(['deliver pf_s3_sync', 'deliver pf_s3_sync', 'callback delivered'])
    expect(callbacks[0]).toMatchObject({ status: 'delivered', recordCount: 2 })

    cancelled = Number.POSITIVE_INFINITY // every read cancelled: the second failure is the query's
    const failed = await runQuery('companies', envelope('pf_s3_sync'), streamed, deps)
    expect(failed).toEqual({ status: 500, body: { error: 'delivery failed', queryId: 'q-1' } })
  })

  it("quotes a failed search's error in its log line cut to a bound (a store error may quote the query's words whole)", async () => {
    const { deps } = world()
    const lines: string[] = []
    deps.logger = createLogger({
      name: 'test',
      destination: new Writable({
        write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()),
      }),
    })
    const word = '\u30ad\u30ed'.repeat(2500)
    const search = () => {
      throw new Error(`word is too long in tsquery: "'${word}':*"`)
    }
    const answer = await runQuery('companies', envelope(), search, deps)
    expect(answer).toEqual({ status: 500, body: { error: 'search failed', queryId: 'q-1' } })
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; err?: { message: string } })
    const failed = logged.find((line) => line.msg === 'query failed')
    expect(failed?.err?.message.startsWith('word is too long in tsquery: "')).toBe(true)
    expect(failed?.err?.message).toMatch(/… \(4735 more characters\)$/)
    expect(failed?.err?.message.length).toBeLessThan(MAX_LOGGED_CHARS + 30)
  })
})
