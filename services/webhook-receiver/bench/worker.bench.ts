import { Queue, Worker } from 'bullmq'
import { Registry } from 'prom-client'
import { createLogger } from '@pf/service-kit'
import { WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { median } from './stats'
import { startRedis } from '@pf/testkit/redis'
import { createRedisConnection } from '../src/queue/create-redis-connection'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import { createWorkerMetrics } from '../src/metrics'

const JOBS = 10_000
const ROUNDS = 3
const CONCURRENCY = 50

const event = (i: number) => ({
  event: 'session.ended',
  timestamp: new Date().toISOString(),
  webhookId: `wh_bench_${i}`,
  data: {
    sessionId: 's',
    applicationId: 'a',
    userId: 'u',
    reason: 'expired',
    actualDurationMinutes: 1,
    totalTokensSpent: 1,
  },
})

async function fill(redisUrl: string, prefix: string) {
  const connection = createRedisConnection({ kind: 'url', url: redisUrl, waitReplicas: 0 }, 'worker')
  const queue = new Queue('webhooks', { connection, prefix })
  for (let start = 0; start < JOBS; start += 1000) {
    await queue.addBulk(
      Array.from({ length: 1000 }, (_, i) => ({
        name: 'session.ended',
        data: event(start + i),
        opts: { removeOnComplete: true },
      })),
    )
  }
  await queue.close()
  connection.disconnect()
}

async function drain(start: () => Worker): Promise<number> {
  const began = performance.now()
  const worker = start()
  let done = 0
  await new Promise<void>((resolve) => {
    worker.on('completed', () => {
      done += 1
      if (done === JOBS) resolve()
    })
  })
  const seconds = (performance.now() - began) / 1000
  await worker.close()
  return JOBS / seconds
}

/**
 * Worker events/s through validation and dispatch, against a bare BullMQ no-op worker: same Redis, same run,
 * alternating the two over several rounds and keeping the median, so neither profits from warm-up alone.
 */
export async function benchWorker() {
  const redis = await startRedis()
  const connection = createRedisConnection({ kind: 'url', url: redis.url, waitReplicas: 0 }, 'worker')
  const noop = async () => {}
  const handlers = Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, noop]))
  const bareRates: number[] = []
  const ourRates: number[] = []
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const barePrefix = `{bare${round}}`
      await fill(redis.url, barePrefix)
      bareRates.push(
        await drain(
          () => new Worker('webhooks', noop, { connection, prefix: barePrefix, concurrency: CONCURRENCY }),
        ),
      )
      const ourPrefix = `{ours${round}}`
      await fill(redis.url, ourPrefix)
      ourRates.push(
        await drain(() =>
          createWebhookWorker({
            connection,
            prefix: ourPrefix,
            handlers,
            logger: createLogger({ name: 'bench', level: 'silent' }),
            metrics: createWorkerMetrics(new Registry()),
            concurrency: CONCURRENCY,
            lockDurationMs: 15_000,
            lockRenewMs: 5000,
            stalledIntervalMs: 10_000,
            onceTtlMs: 60_000,
          }),
        ),
      )
    }
    const bare = median(bareRates)
    const ours = median(ourRates)
    return [
      {
        benchmark: 'bare BullMQ no-op worker (median of 3)',
        metric: 'jobs/s',
        value: Math.round(bare),
        target: '',
      },
      {
        benchmark: 'webhook worker, validate + dispatch (median of 3)',
        metric: 'jobs/s',
        value: Math.round(ours),
        target: '',
      },
      {
        benchmark: 'webhook worker / bare',
        metric: 'ratio',
        value: Number((ours / bare).toFixed(2)),
        target: '>= 0.8',
      },
    ]
  } finally {
    connection.disconnect()
    await redis.stop()
  }
}
