import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  createCleanup,
  freePort,
  startOtlpCollector,
  startServiceProcess,
  type CollectedSpan,
  type OtlpCollector,
  type OtlpProtocol,
  type ServiceProcess,
} from '@pf/testkit'
import { startRecorder } from './support-http'

// Issue 26: the built provider exporting to a collector this test runs, once with the default protocol (no
// OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf, what a deployment that sets only the endpoint gets) and once over
// gRPC (the collector's 4317). The other services' tests cover http/json.
const main = join(__dirname, '..', 'dist', 'main.js')
const cleanup = createCleanup(afterAll)
const API_KEY = 'trace-test-api-key-0123456789'
const TOKEN = 'cb-token-never-in-a-span'
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const byName = (spans: CollectedSpan[]) => Object.fromEntries(spans.map((span) => [span.name, span]))

describe.each([
  ['unset (the default)', 'http/protobuf', undefined],
  ['grpc', 'grpc', 'grpc'],
] as const)(
  'provider traces (issue 26), OTEL_EXPORTER_OTLP_PROTOCOL %s',
  (_label, arrivesAs: OtlpProtocol, protocol) => {
    let collector: OtlpCollector
    let provider: ServiceProcess
    let targets: Awaited<ReturnType<typeof startRecorder>>
    let url: string

    beforeAll(async () => {
      if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
      collector = cleanup.add(await startOtlpCollector({ protocol: protocol ?? 'http' }), (c) => c.close())
      targets = cleanup.add(await startRecorder(), (t) => t.close())
      provider = cleanup.add(
        await startServiceProcess({
          entry: main,
          env: {
            PATH: process.env.PATH,
            PORT: '0',
            PF_API_KEY: API_KEY,
            OUTBOUND_ALLOW_PRIVATE: 'true',
            OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
            ...(protocol ? { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } : {}),
            OTEL_BSP_SCHEDULE_DELAY: '100',
          },
          readyMessage: 'provider listening',
        }),
        (p) => p.stop('SIGKILL'),
      )
      url = (provider.readyLine as { url: string }).url
    })

    function send(envelope: Record<string, unknown>, traceId: string, apiKey = API_KEY) {
      return fetch(`${url}/api/search/companies`, {
        method: 'POST',
        body: JSON.stringify({ callbackUrl: `${targets.url}/cb`, callbackToken: TOKEN, ...envelope }),
        headers: {
          'content-type': 'application/json',
          'x-pf-api-key': apiKey,
          traceparent: `00-${traceId}-${PARENT_ID}-01`,
        },
      })
    }

    const inTrace = (traceId: string) => collector.spans().filter((span) => span.traceId === traceId)

    it('one span per query under the platform’s traceparent, with search, delivery and callback children; the callback and the delivery carry its traceparent', async () => {
      const res = await send(
        {
          queryId: 'q-traced',
          parameters: { name: 'acme', limit: 2 },
          delivery: { mechanism: 'webhook', url: `${targets.url}/results` },
        },
        TRACE_ID,
      )
      expect(res.status).toBe(200)
      await collector.waitForSpans(
        () => inTrace(TRACE_ID).length === 4,
        'the query span and its three children',
      )
      // Every export so far arrived in the protocol under test: the exporter really used it.
      const exports = collector.exports()
      expect(exports[arrivesAs]).toBeGreaterThan(0)
      expect(exports['http/protobuf'] + exports['http/json'] + exports.grpc).toBe(exports[arrivesAs])
      const spans = byName(inTrace(TRACE_ID))
      const query = spans['provider.query']!
      expect(query).toMatchObject({ serviceName: 'provider', parentSpanId: PARENT_ID, statusCode: 0 })
      expect(query.attributes).toEqual({
        'pf.query_id': 'q-traced',
        'pf.endpoint': 'companies',
        'pf.mechanism': 'webhook',
        'pf.record_count': 2,
      })
      for (const child of ['provider.search', 'provider.delivery', 'provider.callback'])
        expect(spans[child]).toMatchObject({ parentSpanId: query.spanId })
      expect(spans['provider.delivery']!.attributes).toMatchObject({ 'http.response.status_code': 200 })
      const header = (path: string) => targets.requests.find((r) => r.url === path)?.headers.traceparent
      expect(header('/cb')).toBe(`00-${TRACE_ID}-${spans['provider.callback']!.spanId}-01`)
      expect(header('/results')).toBe(`00-${TRACE_ID}-${spans['provider.delivery']!.spanId}-01`)
      // Never names, parameters or tokens.
      const exported = JSON.stringify(inTrace(TRACE_ID))
      for (const secret of ['acme', TOKEN, API_KEY]) expect(exported).not.toContain(secret)
    })

    it('the failed path: the span says the stage that failed, with error status, and the callback says failed', async () => {
      const traceId = '5bf92f3577b34da6a3ce929d0e0e4736'
      const closed = `http://127.0.0.1:${await freePort()}/results`
      const res = await send(
        { queryId: 'q-fails', parameters: { name: 'acme' }, delivery: { mechanism: 'webhook', url: closed } },
        traceId,
      )
      expect(res.status).toBe(500)
      await collector.waitForSpans(() => inTrace(traceId).length === 4, 'the failed query’s spans')
      const spans = byName(inTrace(traceId))
      expect(spans['provider.query']).toMatchObject({ statusCode: 2 })
      expect(spans['provider.query']!.attributes).toMatchObject({
        'pf.query_id': 'q-fails',
        'pf.failure_reason': 'delivery failed',
        'pf.record_count': 0,
      })
      expect(spans['provider.delivery']).toMatchObject({ statusCode: 2 })
      expect(spans['provider.callback']!.attributes).toEqual({ 'pf.status': 'failed' })
      // The line saying the query failed is written inside the query span.
      const failed = provider.logs.find((line) => line.msg === 'query failed' && line.queryId === 'q-fails')
      expect(failed).toMatchObject({ trace_id: traceId, span_id: spans['provider.query']!.spanId })
    })

    it('a wrong API key: no span joins the caller’s trace', async () => {
      const traceId = '6bf92f3577b34da6a3ce929d0e0e4736'
      const res = await send({ queryId: 'q-stranger', parameters: { name: 'acme' } }, traceId, 'wrong-key')
      expect(res.status).toBe(401)
      // A later query's spans arrive after anything this one could have exported.
      await send({ queryId: 'q-after', parameters: { name: 'acme' } }, '7bf92f3577b34da6a3ce929d0e0e4736')
      await collector.waitForSpans(
        () => inTrace('7bf92f3577b34da6a3ce929d0e0e4736').length === 3,
        'the next query’s spans',
      )
      expect(inTrace(traceId)).toEqual([])
    })
  },
)
