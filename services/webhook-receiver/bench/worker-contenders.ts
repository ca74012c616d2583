import { randomUUID } from 'node:crypto'
import { Queue, Worker } from 'bullmq'
import { Registry } from 'prom-client'
import { createLogger } from '@pf/service-kit'
import { WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { createJobAdder } from '../src/queue/enqueue/create-job-adder'
import type { RedisConnection } from '../src/queue/redis/create-redis-connection'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'
import { sessionOf } from '../src/queue/ordering/session-of'
import type { EventConsumer } from '../src/queue'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import { createWorkerMetrics } from '../src/metrics'

/** The three workers the worker benches compare: a bare BullMQ no-op worker, ours with ordering off, and on. */
export type Contender = 'bare' | 'off' | 'on'

export const CONCURRENCY = 50
/** Events of one session: with ordering on, at most jobs / this sessions run at once. */
export const EVENTS_PER_SESSION = 10

const began = Date.now() - 60_000
const event = (i: number, sessions: number) => ({
  event: 'session.ended',
  timestamp: new Date(began + i).toISOString(),
  webhookId: `wh_bench_${i}`,
  data: {
    sessionId: `s${i % sessions}`,
    applicationId: 'a',
    userId: 'u',
    reason: 'expired',
    actualDurationMinutes: 1,
    totalTokensSpent: 1,
  },
})

/**
 * The queue as the receiver fills it (its batched enqueue, each event with its dedup marker), for all three
 * workers alike, so that they are compared on the same jobs; for `on` (`WEBHOOK_ORDERING=session`) each event
 * also joins its session's pending set.
 */
export async function fillQueue(redisUrl: string, prefix: string, contender: Contender, jobs: number) {
  const connection = createRedisConnection({ kind: 'url', url: redisUrl, waitReplicas: 0 }, 'producer')
  const queue = new Queue('webhooks', { connection, prefix, defaultJobOptions: { removeOnComplete: true } })
  const adder = createJobAdder({
    connection,
    queue,
    deduplicationTtlMs: 3_600_000,
    waitReplicas: 0,
    waitTimeoutMs: 1000,
    ordered: contender === 'on',
  })
  const sessions = Math.max(1, Math.floor(jobs / EVENTS_PER_SESSION))
  for (let start = 0; start < jobs; start += 1000) {
    await Promise.all(
      Array.from({ length: Math.min(1000, jobs - start) }, (_, i) => {
        const data = event(start + i, sessions)
        const jobId = randomUUID()
        return adder.add(data.event, JSON.stringify(data), jobId, data.webhookId, sessionOf(data, jobId))
      }),
    )
  }
  await queue.close()
  connection.disconnect()
}

const noop = async () => {}
const handlers = Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, noop]))

/** Starts a contender's worker on the queue under `prefix`, no-op handlers, concurrency 50. */
export function startContender(
  contender: Contender,
  connection: RedisConnection,
  prefix: string,
): Pick<EventConsumer, 'on' | 'close'> {
  if (contender === 'bare')
    return new Worker('webhooks', noop, { connection, prefix, concurrency: CONCURRENCY })
  return createWebhookWorker({
    connection,
    prefix,
    handlers,
    logger: createLogger({ name: 'bench', level: 'silent' }),
    metrics: createWorkerMetrics(new Registry()),
    concurrency: CONCURRENCY,
    lockDurationMs: 15_000,
    lockRenewMs: 5000,
    stalledIntervalMs: 10_000,
    onceTtlMs: 60_000,
    ordering: contender === 'on' ? 'session' : 'off',
  })
}

/** Resolves once the worker has completed `jobs` jobs. */
export function completed(worker: Pick<EventConsumer, 'on'>, jobs: number) {
  let done = 0
  return new Promise<void>((resolve) => {
    worker.on('completed', () => {
      done += 1
      if (done === jobs) resolve()
    })
  })
}
