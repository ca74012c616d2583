import { randomUUID } from 'node:crypto'
import { createLogger, createMetricsRegistry, listen, type RunningServer } from '@pf/service-kit'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { createApp } from '../src/create-app'
import { createBullmqEventStore } from '../src/queue/create-bullmq-event-store'

export const SECRET = 'whsec_test_secret'
export const PREVIOUS_SECRET = 'secret with spaces & ünïcode'

export const silentLogger = createLogger({ name: 'test', level: 'silent' })

/** A queue prefix of its own per test, with the Redis Cluster hash tag the service uses. */
export const uniquePrefix = () => `{t-${randomUUID().slice(0, 8)}}`

export interface StartedReceiver extends RunningServer {
  store: ReturnType<typeof createBullmqEventStore>
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
}

/** The real receiver (app + BullMQ store) on an ephemeral port. */
export async function startReceiver(
  redisUrl: string,
  prefix: string,
  overrides: Partial<typeof receiverDefaults> = {},
): Promise<StartedReceiver> {
  const config = { ...receiverDefaults, ...overrides }
  const store = createBullmqEventStore({ redisUrl, prefix, ...config })
  const app = createApp({ config, store, logger: silentLogger, registry: createMetricsRegistry('test') })
  const running = await listen(app, { port: 0, host: '127.0.0.1' })
  return {
    ...running,
    store,
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
  get registry() {
    return createMetricsRegistry('test_worker')
  },
  concurrency: 5,
  lockDurationMs: 1000,
  stalledIntervalMs: 500,
}

let counter = 0
/** A realistic event of a kind, with a fresh `wh_` id unless one is given. */
export function makeEvent(kind: string, overrides: Record<string, unknown> = {}) {
  counter += 1
  const ids = { sessionId: 'sess_1', applicationId: 'app_1', userId: 'user_1' }
  const data: Record<string, Record<string, unknown>> = {
    'session.created': {
      ...ids,
      orgId: 'org_1',
      email: 'ada@example.com',
      durationMinutes: 60,
      startTime: '2026-11-21T10:15:30.000Z',
      expiresAt: '2026-11-21T11:15:30.000Z',
      tokenCost: 120,
    },
    'session.extended': {
      ...ids,
      extensionMinutes: 30,
      previousExpiresAt: '2026-11-21T11:15:30.000Z',
      newExpiresAt: '2026-11-21T11:45:30.000Z',
      tokenCost: 60,
      newBalance: 820,
    },
    'session.ended': { ...ids, reason: 'expired', actualDurationMinutes: 60, totalTokensSpent: 170 },
    'purchase.completed': {
      ...ids,
      purchaseId: 'pur_1',
      itemId: 'item_1',
      itemName: 'Export',
      tokenCost: 50,
      newBalance: 770,
      idempotencyKey: 'idem_1',
    },
    'purchase.failed': {
      ...ids,
      itemId: 'item_9',
      errorCode: 'INSUFFICIENT_BALANCE',
      errorMessage: 'Insufficient token balance',
      currentBalance: 5,
      required: 50,
    },
  }
  return {
    event: kind,
    timestamp: new Date().toISOString(),
    webhookId: `wh_${Date.now().toString(36)}_${counter}_${randomUUID().slice(0, 6)}`,
    data: data[kind] ?? {},
    ...overrides,
  }
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
