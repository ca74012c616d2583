import { randomUUID } from 'node:crypto'
import { createWebhookEvent } from '@pf/testkit/platform'
import { createLogger, createMetricsRegistry, listen, type RunningServer } from '@pf/service-kit'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import type { Queue } from 'bullmq'
import { createApp } from '../src/receiver/create-app'
import type { AcceptOutcome, EventStore, QuarantineOutcome, QuarantineReason } from '../src/queue'
import { createWorkerMetrics } from '../src/metrics'
import { createEventStore } from '../src/queue'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'
import { bullmqQueueOf } from '../src/queue/webhook-queue'
import type { OrderingMode, RedisTarget } from '../src/queue'

export const SECRET = 'whsec_test_secret'
export const PREVIOUS_SECRET = 'secret with spaces & ünïcode'

export const silentLogger = createLogger({ name: 'test', level: 'silent' })

/** A queue prefix of its own per test, with the Redis Cluster hash tag the service uses. */
export const uniquePrefix = () => `{t-${randomUUID().slice(0, 8)}}`

export interface StartedReceiver extends RunningServer {
  store: EventStore
  queue: Queue
  webhookUrl: string
  stop(): Promise<void>
}

export const receiverDefaults = {
  path: '/webhooks/pf',
  secrets: [SECRET, PREVIOUS_SECRET] as [string, ...string[]],
  maxBodyBytes: 64 * 1024,
  dedupTtlSeconds: 7 * 24 * 3600,
  enqueueTimeoutMs: 1500,
  jobAttempts: 3,
  jobBackoffMs: 20,
  keepCompleted: 0,
  keepFailed: 100,
  keepQuarantined: 100,
  quarantineMaxBytes: 100 * 1024 * 1024,
  /** The default: the dedup window less one hour. */
  maxAgeSeconds: 7 * 24 * 3600 - 3600,
  dashboardReadOnly: true,
}

/** A plain `REDIS_URL` target. */
export const urlTarget = (url: string): RedisTarget => ({ kind: 'url', url, waitReplicas: 0 })

/** A worker-side connection to a Redis URL (what the worker and the dead-letter command use). */
export const workerConnection = (url: string) => createRedisConnection(urlTarget(url), 'worker')

/** The real receiver (app + BullMQ store) on an ephemeral port; `redis` a URL or any target. */
export async function startReceiver(
  redis: string | RedisTarget,
  prefix: string,
  overrides: Partial<typeof receiverDefaults> & {
    dashboardToken?: string
    viaQueueAdd?: boolean
    /** The receiver's clock (ms since the epoch), for events of a fixed time such as the test vectors. */
    clock?: () => number
    /** `WEBHOOK_ORDERING`. */
    ordering?: OrderingMode
  } = {},
): Promise<StartedReceiver> {
  const { clock, ...config } = { ...receiverDefaults, ...overrides }
  const target = typeof redis === 'string' ? urlTarget(redis) : redis
  const opened = createEventStore({ redis: target, prefix, ...config })
  const { store } = opened
  // Tests look at BullMQ's own state (counts, jobs); the service sees only the queue's handle.
  const queue = bullmqQueueOf(opened.queue)
  const dashboard = config.dashboardToken
    ? { queue, token: config.dashboardToken, readOnly: config.dashboardReadOnly }
    : undefined
  const app = createApp({
    config,
    deps: { store, logger: silentLogger, registry: createMetricsRegistry('test'), dashboard, clock },
  })
  const running = await listen(app, { port: 0, host: '127.0.0.1' })
  return {
    ...running,
    store,
    queue,
    webhookUrl: `${running.url}${config.path}`,
    async stop() {
      await running.close()
      await store.close()
    },
  }
}

/** Worker settings for tests: fast stalled-job recovery, metrics on a registry of their own. */
export const workerDefaults = {
  logger: silentLogger,
  get metrics() {
    return createWorkerMetrics(createMetricsRegistry('test_worker'))
  },
  concurrency: 5,
  lockDurationMs: 1000,
  lockRenewMs: 300,
  stalledIntervalMs: 500,
  onceTtlMs: 60_000,
}

/** A realistic event of a kind (testkit's sample data), with a fresh `wh_` id unless one is given. */
export function makeEvent(kind: string, overrides: Record<string, unknown> = {}) {
  return { ...createWebhookEvent(kind), ...overrides }
}

/** POSTs a body signed like the platform does (bare hex HMAC of the exact bytes). */
export function postSigned(
  url: string,
  body: string | Buffer,
  { secret = SECRET, signature }: { secret?: string; signature?: string } = {},
) {
  return fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signature ?? signWebhook(secret, body),
    },
    // The platform gives up after 5 s: every answer must come well before.
    signal: AbortSignal.timeout(4500),
  })
}

/** Polls until `check` returns true (or throws after `timeoutMs`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A response's JSON body, typed loosely for assertions. */
export const json = async (res: Response) => (await res.json()) as Record<string, unknown>

/**
 * An in-memory event store that dedups by webhookId: for in-process tests where Redis is not the point.
 * `stored` lists the webhookIds accepted for the worker, `quarantined` the others with their reason.
 */
export function memoryStore(): EventStore & {
  stored: string[]
  quarantined: { webhookId: string; reason: QuarantineReason; detail: string }[]
} {
  const stored: string[] = []
  const quarantined: { webhookId: string; reason: QuarantineReason; detail: string }[] = []
  const known = (webhookId: string) =>
    stored.includes(webhookId) || quarantined.some((entry) => entry.webhookId === webhookId)
  return {
    stored,
    quarantined,
    async accept(event, _json): Promise<AcceptOutcome> {
      if (known(event.webhookId)) return 'duplicate'
      stored.push(event.webhookId)
      return 'accepted'
    },
    async quarantine({ webhookId, reason, detail }, _json): Promise<QuarantineOutcome> {
      if (known(webhookId)) return 'duplicate'
      quarantined.push({ webhookId, reason, detail })
      return 'quarantined'
    },
    ready: async () => {},
    counts: async () => ({}),
    oldestWaitingAt: async () => undefined,
    close: async () => {},
  }
}
