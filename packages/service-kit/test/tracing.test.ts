import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { startOtlpCollector, type CollectedSpan, type OtlpCollector, type OtlpProtocol } from '@pf/testkit'

const run = promisify(execFile)
const FIXTURE = path.join(__dirname, 'fixtures', 'traced-command.cjs')

/** Runs the fixture command (the built service-kit) with these variables; its stdout lines parsed. */
async function runFixture(env: Record<string, string>) {
  const { stdout } = await run(process.execPath, [FIXTURE], { env: { PATH: process.env.PATH, ...env } })
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('startTracing through runCommand (issue 26: OTEL_* variables only)', () => {
  let collector: OtlpCollector
  beforeAll(async () => {
    collector = await startOtlpCollector()
  })
  afterAll(async () => {
    await collector?.close()
  })

  it('loads no SDK and writes no trace ids when no OTLP endpoint is set', async () => {
    const lines = await runFixture({})
    expect(lines.find((line) => line.msg === 'done')).toMatchObject({ sdkLoaded: false })
    expect(lines.find((line) => line.msg === 'inside the span')).not.toHaveProperty('trace_id')
  })

  it('exports the span before the command exits, named after the command, and logs carry its ids', async () => {
    const lines = await runFixture({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
    })
    const spans = collector.spans().filter((span) => span.name === 'fixture.work')
    expect(spans).toHaveLength(1)
    expect(spans[0]).toMatchObject({ serviceName: 'traced-command', attributes: { step: 'one' } })
    const inside = lines.find((line) => line.msg === 'inside the span')
    const [span] = spans as [CollectedSpan]
    expect(inside).toMatchObject({ trace_id: span.traceId, span_id: span.spanId })
    expect(lines.find((line) => line.msg === 'done')).not.toHaveProperty('trace_id')
  })

  it('takes OTEL_SERVICE_NAME over the default name, and OTEL_SDK_DISABLED=true turns tracing off', async () => {
    const before = collector.spans().length
    await runFixture({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'renamed',
    })
    expect(
      collector
        .spans()
        .slice(before)
        .map((span) => span.serviceName),
    ).toEqual(['renamed', 'renamed'])
    const lines = await runFixture({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SDK_DISABLED: 'true' })
    expect(lines.find((line) => line.msg === 'done')).toMatchObject({ sdkLoaded: false })
    expect(collector.spans()).toHaveLength(before + 2)
  })

  it('refuses an unknown OTLP protocol with one line and exit code 1', async () => {
    const failure = await runFixture({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift',
    }).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 1 })
    expect((failure as { stderr: string }).stderr).toMatch(
      /^traced-command: invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json, grpc \(got "thrift"\)\n$/,
    )
  })

  it('refuses an exporter other than otlp (console would write spans into the log stream) with exit code 1', async () => {
    const failure = await runFixture({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_TRACES_EXPORTER: 'console',
    }).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 1 })
    expect((failure as { stderr: string }).stderr).toMatch(
      /OTEL_TRACES_EXPORTER must be otlp or none \(got "console"\)/,
    )
  })
})

// What the fixture exports, whatever the protocol: the parent named, ids left out (they differ per run).
function tree(spans: CollectedSpan[]) {
  const names = new Map(spans.map((span) => [span.spanId, span.name]))
  return spans
    .map(({ name, serviceName, parentSpanId, attributes, events, statusCode }) => ({
      name,
      serviceName,
      parent: parentSpanId ? names.get(parentSpanId) : undefined,
      attributes,
      events,
      statusCode,
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

describe('startTracing exports over each OTLP protocol (README, "Traces")', () => {
  // Unset: the SDK's default, which the README says is http/protobuf; the collector tells what really arrived.
  it.each([
    ['unset (the default)', 'http/protobuf', undefined],
    ['http/protobuf', 'http/protobuf', 'http/protobuf'],
    ['http/json', 'http/json', 'http/json'],
    ['grpc', 'grpc', 'grpc'],
  ] as const)(
    'with OTEL_EXPORTER_OTLP_PROTOCOL %s the collector receives the span tree as %s',
    async (_label, arrivesAs: OtlpProtocol, protocol) => {
      const collector = await startOtlpCollector({ protocol: arrivesAs === 'grpc' ? 'grpc' : 'http' })
      try {
        await runFixture({
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          ...(protocol ? { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } : {}),
        })
        const spans = await collector.waitForSpans(
          (received) => received.length === 2,
          'the fixture’s two spans',
        )
        // Every export request in the expected protocol (the batch processor decides how many there are).
        const exports = collector.exports()
        expect(exports[arrivesAs]).toBeGreaterThan(0)
        expect(exports['http/protobuf'] + exports['http/json'] + exports.grpc).toBe(exports[arrivesAs])
        expect(new Set(spans.map((span) => span.traceId)).size).toBe(1)
        expect(tree(spans)).toEqual([
          {
            name: 'fixture.step',
            serviceName: 'traced-command',
            parent: 'fixture.work',
            attributes: { count: 2, negative: -3, ratio: 0.5, ok: true, tags: ['a', 'b'] },
            events: [{ name: 'fixture.event', attributes: { reason: 'seen', attempt: 1 } }],
            statusCode: 0,
          },
          {
            name: 'fixture.work',
            serviceName: 'traced-command',
            parent: undefined,
            attributes: { step: 'one' },
            events: [],
            statusCode: 0,
          },
        ])
      } finally {
        await collector.close()
      }
    },
  )
})
