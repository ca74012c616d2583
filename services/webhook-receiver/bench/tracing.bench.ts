import { join } from 'node:path'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { createCleanup, startOtlpCollector, startServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { redisCommand, startRedis } from '@pf/testkit/redis'
import { load } from './load'
import { spread } from './stats'

const SECRET = 'whsec_bench_secret'
const service = join(__dirname, '..')
const ROUNDS = 3

/** A fresh, signed session.created per request, sent with a `traceparent` (the platform's, when it traces). */
function nextEvent() {
  const body = JSON.stringify(createWebhookEvent('session.created'))
  const traceId = [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signWebhook(SECRET, body),
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    },
  }
}

/**
 * Issue 26: the receiver's accepted events/s as a ratio of the Express hello-world, with tracing off (no
 * OTLP endpoint: the SDK is not loaded) and on (every request sampled, exported as http/json to a collector in
 * this process), the three built processes measured in turn in each of three rounds, Redis emptied before each.
 */
export async function benchTracing(durationSeconds: number) {
  const cleanup = createCleanup()
  try {
    const redis = cleanup.add(await startRedis(), (r) => r.stop())
    const collector = cleanup.add(await startOtlpCollector({ keep: false }), (c) => c.close())
    const start = async (entry: string, readyMessage: string, env: Record<string, string> = {}) =>
      cleanup.add(
        await startServiceProcess({
          entry,
          cwd: service,
          env: { PATH: process.env.PATH, ...env },
          readyMessage,
        }),
        (p) => p.stop(),
      )
    const base = { PORT: '0', LOG_LEVEL: 'info', REDIS_URL: redis.url, PF_WEBHOOK_SECRET: SECRET }
    const main = join(service, 'dist', 'main.js')
    const servers = {
      hello: await start(join(__dirname, 'hello-world.cjs'), 'listening'),
      off: await start(main, 'webhook receiver listening', base),
      on: await start(main, 'webhook receiver listening', {
        ...base,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    }
    const url = (name: keyof typeof servers) => `${servers[name].readyLine.url as string}/webhooks/pf`
    const rate = async (name: keyof typeof servers, seconds: number) => {
      if (name !== 'hello' && redis.isPrivate)
        await redisCommand(Number(new URL(redis.url).port), ['FLUSHALL'])
      const result = await load({
        url: url(name),
        durationSeconds: seconds,
        connections: 64,
        nextRequest: nextEvent,
      })
      return result.requestsPerSecond
    }
    for (const name of ['hello', 'off', 'on'] as const) await rate(name, 2) // warm-up
    const rates = { hello: [] as number[], off: [] as number[], on: [] as number[] }
    for (let round = 0; round < ROUNDS; round += 1)
      for (const name of ['hello', 'off', 'on'] as const) rates[name].push(await rate(name, durationSeconds))
    const ratio = (name: 'off' | 'on') => rates[name].map((r, i) => r / (rates.hello[i] as number))
    return [
      {
        benchmark: 'tracing off: receiver events/s',
        metric: 'min / median / max',
        value: spread(rates.off),
        target: '',
      },
      {
        benchmark: 'tracing on: receiver events/s',
        metric: 'min / median / max',
        value: spread(rates.on),
        target: '',
      },
      {
        benchmark: 'tracing off: receiver / hello-world',
        metric: 'min / median / max',
        value: spread(ratio('off'), 2),
        target: 'as without tracing',
      },
      {
        benchmark: 'tracing on: receiver / hello-world',
        metric: 'min / median / max',
        value: spread(ratio('on'), 2),
        target: '',
      },
      {
        benchmark: 'tracing on: spans at the collector',
        metric: 'count',
        value: String(collector.count()),
        target: '>= 2 per event',
      },
    ]
  } finally {
    await cleanup.run()
  }
}
