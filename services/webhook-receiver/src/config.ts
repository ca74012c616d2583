import { readFileSync } from 'node:fs'
import {
  checkProductionSecrets,
  createEnvReader,
  readServerLimits,
  type Env,
  type ServerLimits,
} from '@pf/service-kit'
import { DEFAULT_QUEUE_PREFIX, PLATFORM_RETRY_HORIZON_SECONDS } from './adapters/queue-names'

export interface QueueConfig {
  redisUrl: string
  queuePrefix: string
}

export interface ReceiverConfig extends QueueConfig {
  port: number
  logLevel: string
  /** Current secret first; more during a rotation. */
  secrets: [string, ...string[]]
  path: string
  tls?: { cert: Buffer; key: Buffer }
  maxBodyBytes: number
  dedupTtlSeconds: number
  enqueueTimeoutMs: number
  jobAttempts: number
  jobBackoffMs: number
  keepCompleted: number
  keepFailed: number
  /** Token of the bull-board dashboard at /admin/queues; unset: no dashboard. */
  dashboardToken?: string
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
}

export interface WorkerConfig extends QueueConfig {
  port: number
  logLevel: string
  handlersPath?: string
  concurrency: number
  lockDurationMs: number
  stalledIntervalMs: number
  /** The ops server's limits; `drainTimeoutMs` also bounds the wait for jobs in progress on SIGTERM. */
  server: ServerLimits
}

const DAY = 24 * 60 * 60

function readQueueConfig(env: ReturnType<typeof createEnvReader>): QueueConfig {
  return {
    redisUrl: env.url('REDIS_URL', 'redis://127.0.0.1:6379'),
    queuePrefix: env.string('WEBHOOK_QUEUE_PREFIX', DEFAULT_QUEUE_PREFIX),
  }
}

function readTls(env: ReturnType<typeof createEnvReader>): ReceiverConfig['tls'] {
  const certFile = env.optional('TLS_CERT_FILE')
  const keyFile = env.optional('TLS_KEY_FILE')
  if (!certFile && !keyFile) return undefined
  if (!certFile || !keyFile) {
    env.problem('TLS_CERT_FILE and TLS_KEY_FILE must be set together')
    return undefined
  }
  try {
    return { cert: readFileSync(certFile), key: readFileSync(keyFile) }
  } catch (error) {
    env.problem(`TLS files cannot be read: ${(error as Error).message}`)
    return undefined
  }
}

export interface DeadLettersConfig extends QueueConfig {
  /** How long the command waits for Redis before it gives up. */
  timeoutMs: number
}

/** Redis, the queue prefix and a time-out: what the dead-letters command needs. */
export function loadDeadLettersConfig(source: Env): DeadLettersConfig {
  const env = createEnvReader(source)
  const config = {
    ...readQueueConfig(env),
    timeoutMs: env.int('DEAD_LETTERS_TIMEOUT_MS', { default: 10_000, min: 100 }),
  }
  env.done()
  return config
}

/** The receiver's settings, read once at start; throws a `ConfigError` naming every bad one. */
export function loadReceiverConfig(source: Env): ReceiverConfig {
  const env = createEnvReader(source)
  const secrets = env.list('PF_WEBHOOK_SECRET')
  if (secrets.length === 0) env.problem('PF_WEBHOOK_SECRET is required (comma-separated during a rotation)')
  const path = env.string('WEBHOOK_PATH', '/webhooks/pf')
  if (!path.startsWith('/')) env.problem(`WEBHOOK_PATH must start with / (got "${path}")`)
  const config: ReceiverConfig = {
    ...readQueueConfig(env),
    port: env.int('PORT', { default: 3001, min: 0, max: 65535 }),
    logLevel: env.string('LOG_LEVEL', 'info'),
    secrets: secrets as [string, ...string[]],
    path,
    tls: readTls(env),
    maxBodyBytes: env.int('WEBHOOK_MAX_BODY_BYTES', { default: 1024 * 1024, min: 1024 }),
    dedupTtlSeconds: env.int('WEBHOOK_DEDUP_TTL_SECONDS', {
      default: 7 * DAY,
      min: PLATFORM_RETRY_HORIZON_SECONDS,
    }),
    enqueueTimeoutMs: env.int('WEBHOOK_ENQUEUE_TIMEOUT_MS', { default: 2000, min: 50, max: 4000 }),
    jobAttempts: env.int('WEBHOOK_JOB_ATTEMPTS', { default: 10, min: 1 }),
    jobBackoffMs: env.int('WEBHOOK_JOB_BACKOFF_MS', { default: 1000, min: 1 }),
    keepCompleted: env.int('WEBHOOK_KEEP_COMPLETED', { default: 1000, min: 0 }),
    keepFailed: env.int('WEBHOOK_KEEP_FAILED', { default: 10_000, min: 1 }),
    dashboardToken: env.optional('QUEUE_DASHBOARD_TOKEN'),
    server: readServerLimits(env),
  }
  if (config.dashboardToken !== undefined && config.dashboardToken.length < 16) {
    env.problem('QUEUE_DASHBOARD_TOKEN must be at least 16 characters')
  }
  checkProductionSecrets(env, [
    // An HMAC-SHA256 key: shorter than its 32-byte output is weaker than the signature it makes.
    { name: 'PF_WEBHOOK_SECRET', values: secrets, minBytes: 32 },
    { name: 'QUEUE_DASHBOARD_TOKEN', values: config.dashboardToken ? [config.dashboardToken] : [] },
  ])
  const allowPlainHttp = env.bool('ALLOW_PLAIN_HTTP', false)
  if (env.optional('NODE_ENV') === 'production' && !config.tls && !allowPlainHttp) {
    env.problem(
      'NODE_ENV=production serves webhooks over HTTPS only (the spec: deliveries use HTTPS): set TLS_CERT_FILE and TLS_KEY_FILE, or ALLOW_PLAIN_HTTP=true when TLS ends at an ingress in front of the receiver',
    )
  }
  env.done()
  return config
}

/** The worker's settings, read once at start. */
export function loadWorkerConfig(source: Env): WorkerConfig {
  const env = createEnvReader(source)
  const config: WorkerConfig = {
    ...readQueueConfig(env),
    port: env.int('PORT', { default: 3011, min: 0, max: 65535 }),
    logLevel: env.string('LOG_LEVEL', 'info'),
    handlersPath: env.optional('WEBHOOK_HANDLERS'),
    concurrency: env.int('WORKER_CONCURRENCY', { default: 10, min: 1 }),
    lockDurationMs: env.int('WORKER_LOCK_DURATION_MS', { default: 30_000, min: 500 }),
    stalledIntervalMs: env.int('WORKER_STALLED_INTERVAL_MS', { default: 30_000, min: 500 }),
    server: readServerLimits(env, { drainTimeoutMs: 30_000 }),
  }
  env.done()
  return config
}
