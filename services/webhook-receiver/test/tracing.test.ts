import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  createCleanup,
  startOtlpCollector,
  startServiceProcess,
  type CollectedSpan,
  type OtlpCollector,
  type ServiceProcess,
} from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { makeEvent, SECRET, uniquePrefix } from './support'

// Issue 26: the built processes (dist/), exporting http/json to a collector this test runs.
const dist = join(__dirname, '..', 'dist')
const run = promisify(execFile)
const cleanup = createCleanup(afterAll)
let redis: RedisHandle
let collector: OtlpCollector
let receiver: ServiceProcess
let worker: ServiceProcess
let env: Record<string, string>
let webhookUrl: string
const fixed = join(mkdtempSync(join(tmpdir(), 'pf-traces-')), 'fixed')

beforeAll(async () => {
  if (!existsSync(join(dist, 'worker.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
  collector = cleanup.add(await startOtlpCollector(), (c) => c.close())
  env = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    REDIS_URL: redis.url,
    WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
    PF_WEBHOOK_SECRET: SECRET,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  }
  const start = (entry: string, readyMessage: string, more: Record<string, string> = {}) =>
    startServiceProcess({ entry: join(dist, entry), env: { ...env, ...more }, readyMessage })
  receiver = cleanup.add(await start('main.js', 'webhook receiver listening'), (p) => p.stop('SIGKILL'))
  worker = cleanup.add(
    await start('worker.js', 'webhook worker running', {
      WEBHOOK_HANDLERS: join(__dirname, 'fixtures', 'traced-handlers.cjs'),
      WEBHOOK_JOB_BACKOFF_MS: '10',
      TRACE_TEST_FIXED: fixed,
    }),
    (p) => p.stop('SIGKILL'),
  )
  webhookUrl = `${(receiver.readyLine as { url: string }).url}/webhooks/pf`
})

let counter = 0
/** A W3C `traceparent` of a fresh trace, as the platform's tracing would send. */
function traceparent() {
  counter += 1
  const traceId = `${'ab'.repeat(12)}${String(counter).padStart(8, '0')}`
  return { traceId, parentId: '00f067aa0ba902b7', header: `00-${traceId}-00f067aa0ba902b7-01` }
}

function post(body: string, headers: Record<string, string>, signature = signWebhook(SECRET, body)) {
  return fetch(webhookUrl, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, ...headers },
  })
}

const named = (spans: CollectedSpan[], name: string) => spans.filter((span) => span.name === name)
const inTrace = (traceId: string) => collector.spans().filter((span) => span.traceId === traceId)

describe('traces across the receiver and the worker (issue 26)', () => {
  it('a signed webhook with a traceparent: request span under it, an enqueue child, and every worker attempt and handler span in the same trace', async () => {
    const trace = traceparent()
    const event = makeEvent('session.created')
    expect((await post(JSON.stringify(event), { traceparent: trace.header })).status).toBe(200)
    const spans = await collector.waitForSpans(
      () => named(inTrace(trace.traceId), 'handler.session-created').length === 2,
      'both attempts and their handler spans',
    )
    const mine = spans.filter((span) => span.traceId === trace.traceId)
    const [request] = named(mine, 'webhook.receive')
    const [enqueue] = named(mine, 'webhook.enqueue')
    expect(request).toMatchObject({ serviceName: 'webhook-receiver', parentSpanId: trace.parentId })
    expect(request!.attributes).toMatchObject({ 'pf.webhook_id': event.webhookId, 'pf.outcome': 'accepted' })
    expect(enqueue).toMatchObject({ serviceName: 'webhook-receiver', parentSpanId: request!.spanId })
    await collector.waitForSpans(
      () => named(inTrace(trace.traceId), 'webhook.process').length === 2,
      'both attempts',
    )
    const attempts = named(inTrace(trace.traceId), 'webhook.process')
    expect(
      attempts.map((span) => [span.serviceName, span.parentSpanId, span.attributes['pf.attempt']]).sort(),
    ).toEqual([
      ['webhook-worker', enqueue!.spanId, 1],
      ['webhook-worker', enqueue!.spanId, 2],
    ])
    expect(attempts.map((span) => span.statusCode).sort()).toEqual([0, 2])
    const handlerSpans = named(inTrace(trace.traceId), 'handler.session-created')
    expect(handlerSpans.map((span) => span.parentSpanId).sort()).toEqual(
      attempts.map((span) => span.spanId).sort(),
    )
    // Every log line written inside a span names it.
    const handlerLog = worker.logs.find((line) => line.msg === 'inside the handler span')
    expect(handlerLog).toMatchObject({ trace_id: trace.traceId })
    expect(handlerSpans.map((span) => span.spanId)).toContain(handlerLog!.span_id)
  })

  it('a refused signature starts a fresh trace: the stranger’s traceparent is not honoured', async () => {
    const trace = traceparent()
    const res = await post(
      JSON.stringify(makeEvent('session.created')),
      { traceparent: trace.header },
      'f'.repeat(64),
    )
    expect(res.status).toBe(401)
    const spans = await collector.waitForSpans(
      (all) => all.some((span) => span.attributes['pf.refusal'] !== undefined),
      'the refused request span',
    )
    const refused = spans.filter((span) => span.attributes['pf.refusal'] !== undefined)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ name: 'webhook.receive', parentSpanId: undefined, statusCode: 2 })
    expect(refused[0]!.traceId).not.toBe(trace.traceId)
    expect(inTrace(trace.traceId)).toEqual([])
  })

  it('a duplicate delivery and a quarantined event are span events with their reason, and their log lines carry the trace id', async () => {
    const event = makeEvent('session.created')
    await post(JSON.stringify(event), {})
    const again = traceparent()
    await post(JSON.stringify(event), { traceparent: again.header })
    const stale = traceparent()
    const old = makeEvent('session.created', {
      timestamp: new Date(Date.now() - 9 * 24 * 3600_000).toISOString(),
    })
    await post(JSON.stringify(old), { traceparent: stale.header })
    await collector.waitForSpans(
      () =>
        named(inTrace(again.traceId), 'webhook.receive').length +
          named(inTrace(stale.traceId), 'webhook.receive').length ===
        2,
      'the two request spans',
    )
    expect(named(inTrace(again.traceId), 'webhook.receive')[0]!.events).toEqual([
      { name: 'duplicate', attributes: { 'pf.reason': 'webhookId already received' } },
    ])
    expect(named(inTrace(stale.traceId), 'webhook.receive')[0]!.events).toEqual([
      { name: 'quarantined', attributes: { 'pf.reason': 'stale' } },
    ])
    expect(receiver.logs.find((line) => line.webhookId === old.webhookId)).toMatchObject({
      trace_id: stale.traceId,
    })
  })

  it('a dead letter replayed by pf-dead-letters is processed again in the trace of its delivery', async () => {
    const trace = traceparent()
    const event = makeEvent('purchase.completed')
    expect((await post(JSON.stringify(event), { traceparent: trace.header })).status).toBe(200)
    await collector.waitForSpans(
      () => named(inTrace(trace.traceId), 'webhook.process').length === 1,
      'the failed attempt',
    )
    writeFileSync(fixed, 'yes')
    const replay = await run(
      process.execPath,
      [join(dist, 'dead-letters.js'), 'replay', event.webhookId as string],
      { env },
    )
    expect(replay.stdout).toMatch(/^replayed 1 dead letter/)
    // The command's own span is exported before it exits.
    expect(named(collector.spans(), 'dead-letters.replay')).toEqual([
      expect.objectContaining({
        serviceName: 'pf-dead-letters',
        attributes: { 'pf.replay': event.webhookId, 'pf.replayed': 1, 'pf.still_invalid': 0 },
      }),
    ])
    const processed = await collector.waitForSpans(
      () => named(inTrace(trace.traceId), 'webhook.process').length === 2,
      'the replayed attempt',
    )
    const attempts = named(
      processed.filter((span) => span.traceId === trace.traceId),
      'webhook.process',
    )
    expect(attempts.map((span) => span.statusCode).sort()).toEqual([0, 2])
  })
})

describe('a collector that never answers (issue 26, processes exit within their drain time)', () => {
  it('the receiver still exits 0 on SIGTERM with SHUTDOWN_DRAIN_MS=0: the span flush is cut short, not the exit', async () => {
    // Accepts connections and never answers: the SDK's own export time-out (10 s) is past drain + margin (5 s).
    const sockets: Socket[] = []
    const blackhole = createServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve))
    cleanup.add(blackhole, (server) => {
      for (const socket of sockets) socket.destroy()
      server.close()
    })
    const { port } = blackhole.address() as { port: number }
    const stuck = await startServiceProcess({
      entry: join(dist, 'main.js'),
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, SHUTDOWN_DRAIN_MS: '0' },
      readyMessage: 'webhook receiver listening',
    })
    cleanup.add(stuck, (p) => p.stop('SIGKILL'))
    const body = JSON.stringify(makeEvent('purchase.completed'))
    const url = `${(stuck.readyLine as { url: string }).url}/webhooks/pf`
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
    })
    expect(answer.status).toBe(200)
    expect(await stuck.stop('SIGTERM', { killAfterMs: 60_000 })).toBe(0)
  })
})
