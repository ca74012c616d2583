import { readFileSync } from 'node:fs'
import {
  checkProductionSecrets,
  createEnvReader,
  readOpsSettings,
  readServerLimits,
  type Env,
  type OpsSettings,
  type ServerLimits,
} from '@pf/service-kit'
import {
  DEFAULT_QUEUE_PREFIX,
  parseHostPorts,
  PLATFORM_RETRY_HORIZON_SECONDS,
  ORDERING_MODES,
  MAX_QUEUE_SHARDS,
  type JobSettings,
  type OrderingMode,
  type RedisTarget,
} from './queue'
import { readSessionEndSettings, type SessionEndSettings } from './worker/session-end-settings'

export interface QueueConfig {
  redis: RedisTarget
  queuePrefix: string
  /** `WEBHOOK_ORDERING`: `session` hands a session's events on one at a time, in signed-timestamp order. */
  ordering: OrderingMode
  /** `QUEUE_SHARDS`: the queues events are spread over by session, each under its own hash tag. */
  shards: number
  /** `QUEUE_RESHARD_FROM`: during a resharding, the number of shards before it (its markers and queues). */
  reshardFrom?: number
}

/** What each job gets: attempts and backoff of its handler, and how many finished jobs Redis keeps. */
export type JobConfig = JobSettings

export interface ReceiverConfig extends QueueConfig, JobConfig {
  port: number
  logLevel: string
  /** Current secret first; more during a rotation. */
  secrets: [string, ...string[]]
  path: string
  tls?: { cert: Buffer; key: Buffer }
  maxBodyBytes: number
  dedupTtlSeconds: number
  /** Oldest signed `timestamp` handed to the worker; older events are quarantined as `stale`. */
  maxAgeSeconds: number
  enqueueTimeoutMs: number
  /** Quarantined events kept (the newest), apart from the dead letters. */
  keepQuarantined: number
  /** Bytes of quarantined events kept, all together (the newest ones): at least one body's worth. */
  quarantineMaxBytes: number
  /** Token of the bull-board dashboard at /admin/queues; unset: no dashboard. */
  dashboardToken?: string
  /** The dashboard shows, never changes, the queue (`QUEUE_DASHBOARD_READ_ONLY`, default true). */
  dashboardReadOnly: boolean
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
  /** What start-up should say at warn level, once the logger exists (a short webhook secret in production). */
  warnings: string[]
}

export interface WorkerConfig extends QueueConfig {
  port: number
  logLevel: string
  handlersPath?: string
  concurrency: number
  lockDurationMs: number
  lockRenewMs: number
  stalledIntervalMs: number
  /** How long `context.once` remembers a done effect: beyond the receiver's dedup window. */
  onceTtlMs: number
  /** The receiver's dedup window: how long a session's ordering state is kept. */
  dedupTtlSeconds: number
  /** `IDP_SESSION_END=on`: the identity provider whose sessions end with the marketplace's (issue 27). */
  sessionEnd?: SessionEndSettings
  /** The ops server's limits; `drainTimeoutMs` also bounds the wait for jobs in progress on SIGTERM. */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
}

const DAY = 24 * 60 * 60
const HOUR = 60 * 60

/**
 * The shortest `WEBHOOK_MAX_AGE_SECONDS`: the platform's last retry comes 7 h 12 min 30 s after the event, with
 * the same signed `timestamp`; 5 minutes more for clock skew and the delivery itself.
 */
export const MIN_MAX_AGE_SECONDS = PLATFORM_RETRY_HORIZON_SECONDS + 5 * 60
/** The shortest `WEBHOOK_DEDUP_TTL_SECONDS`: its default maximum age (the TTL less one hour) must be allowed. */
export const MIN_DEDUP_TTL_SECONDS = MIN_MAX_AGE_SECONDS + HOUR

/**
 * Where Redis is: `REDIS_URL`, or Sentinel (`REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`), or Cluster
 * (`REDIS_CLUSTER_NODES`), one of them. Highly available setups wait for one replica by default.
 */
function readRedisTarget(env: ReturnType<typeof createEnvReader>): RedisTarget {
  const sentinels = env.list('REDIS_SENTINELS')
  const clusterNodes = env.list('REDIS_CLUSTER_NODES')
  const url = env.optional('REDIS_URL')
  const chosen = [
    url && 'REDIS_URL',
    sentinels.length > 0 && 'REDIS_SENTINELS',
    clusterNodes.length > 0 && 'REDIS_CLUSTER_NODES',
  ]
  if (chosen.filter(Boolean).length > 1)
    env.problem(
      `set one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (got ${chosen.filter(Boolean).join(' and ')})`,
    )
  const credentials = { username: env.optional('REDIS_USERNAME'), password: env.optional('REDIS_PASSWORD') }
  const hosts = (name: string, items: string[]) => {
    const { nodes, bad } = parseHostPorts(items)
    if (bad !== undefined) env.problem(`${name} must be a comma list of host:port (got "${bad}")`)
    return nodes
  }
  if (sentinels.length > 0) {
    const name = env.optional('REDIS_SENTINEL_NAME')
    if (!name)
      env.problem(
        'REDIS_SENTINEL_NAME is required with REDIS_SENTINELS (the master name the sentinels monitor)',
      )
    return {
      kind: 'sentinel',
      sentinels: hosts('REDIS_SENTINELS', sentinels),
      name: name ?? '',
      ...credentials,
      waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 1, min: 0, max: 16 }),
    }
  }
  if (clusterNodes.length > 0)
    return {
      kind: 'cluster',
      nodes: hosts('REDIS_CLUSTER_NODES', clusterNodes),
      ...credentials,
      waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 1, min: 0, max: 16 }),
    }
  if (env.optional('REDIS_SENTINEL_NAME')) env.problem('REDIS_SENTINEL_NAME needs REDIS_SENTINELS')
  return {
    kind: 'url',
    url: env.url('REDIS_URL', 'redis://127.0.0.1:6379'),
    waitReplicas: env.int('REDIS_WAIT_REPLICAS', { default: 0, min: 0, max: 16 }),
  }
}

function readQueueConfig(env: ReturnType<typeof createEnvReader>): QueueConfig {
  const queuePrefix = env.string('WEBHOOK_QUEUE_PREFIX', DEFAULT_QUEUE_PREFIX)
  const redis = readRedisTarget(env)
  // Redis Cluster: BullMQ's scripts touch many keys of a queue at once, which must share one hash slot.
  if (redis.kind === 'cluster' && !/\{[^}]+\}/.test(queuePrefix))
    env.problem(
      `WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with REDIS_CLUSTER_NODES (got "${queuePrefix}")`,
    )
  const shards = env.int('QUEUE_SHARDS', { default: 1, min: 1, max: MAX_QUEUE_SHARDS })
  const reshardFrom = env.optional('QUEUE_RESHARD_FROM')
    ? env.int('QUEUE_RESHARD_FROM', { default: 1, min: 1, max: MAX_QUEUE_SHARDS })
    : undefined
  // Each shard's queue gets its own hash tag, made from the prefix's.
  if (Math.max(shards, reshardFrom ?? 1) > 1 && !/\{[^}]+\}/.test(queuePrefix))
    env.problem(
      `WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with QUEUE_SHARDS or QUEUE_RESHARD_FROM above 1 (got "${queuePrefix}")`,
    )
  return {
    redis,
    queuePrefix,
    ordering: env.oneOf('WEBHOOK_ORDERING', ORDERING_MODES, 'off'),
    shards,
    reshardFrom,
  }
}

/** How long a `webhookId` stays known: beyond the platform's whole retry horizon (see `readMaxAgeSeconds`). */
function readDedupTtlSeconds(env: ReturnType<typeof createEnvReader>): number {
  return env.int('WEBHOOK_DEDUP_TTL_SECONDS', { default: 7 * DAY, min: MIN_DEDUP_TTL_SECONDS })
}

/**
 * How old a signed `timestamp` may be: shorter than the dedup window, so that a delivery captured and replayed
 * once its webhookId is forgotten is `stale`, never taken for a new event; at least the platform's retry
 * horizon plus 5 minutes, so that its last retry is never stale.
 */
function readMaxAgeSeconds(env: ReturnType<typeof createEnvReader>, dedupTtlSeconds: number): number {
  const maxAge = env.int('WEBHOOK_MAX_AGE_SECONDS', { default: dedupTtlSeconds - HOUR, min: 1 })
  if (maxAge < MIN_MAX_AGE_SECONDS)
    env.problem(
      `WEBHOOK_MAX_AGE_SECONDS must be at least ${MIN_MAX_AGE_SECONDS}, the platform's retry horizon (7 h 12 min 30 s) plus 5 min (got ${maxAge})`,
    )
  else if (maxAge >= dedupTtlSeconds)
    env.problem(
      `WEBHOOK_MAX_AGE_SECONDS must be shorter than WEBHOOK_DEDUP_TTL_SECONDS, so that a delivery replayed after its webhookId is forgotten is stale (got ${maxAge} and ${dedupTtlSeconds})`,
    )
  return maxAge
}

function readJobConfig(env: ReturnType<typeof createEnvReader>): JobConfig {
  return {
    jobAttempts: env.int('WEBHOOK_JOB_ATTEMPTS', { default: 10, min: 1 }),
    jobBackoffMs: env.int('WEBHOOK_JOB_BACKOFF_MS', { default: 1000, min: 1 }),
    keepCompleted: env.int('WEBHOOK_KEEP_COMPLETED', { default: 1000, min: 0 }),
    keepFailed: env.int('WEBHOOK_KEEP_FAILED', { default: 10_000, min: 1 }),
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

export interface DeadLettersConfig extends QueueConfig, JobConfig {
  /** How long the command waits for Redis before it gives up. */
  timeoutMs: number
  /** How long a replayed quarantined event's mark in its session's ordering state is kept. */
  dedupTtlSeconds: number
}

/**
 * Redis, the queue prefix and a time-out: what the dead-letters command needs; and the receiver's job
 * settings, which a quarantined event handed on by `replay` gets like any other.
 */
export function loadDeadLettersConfig(source: Env): DeadLettersConfig {
  const env = createEnvReader(source)
  const config = {
    ...readQueueConfig(env),
    ...readJobConfig(env),
    timeoutMs: env.int('DEAD_LETTERS_TIMEOUT_MS', { default: 3000, min: 100 }),
    dedupTtlSeconds: readDedupTtlSeconds(env),
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
  const port = env.int('PORT', { default: 3001, min: 0, max: 65535 })
  const config: ReceiverConfig = {
    ...readQueueConfig(env),
    ...readJobConfig(env),
    port,
    logLevel: env.string('LOG_LEVEL', 'info'),
    secrets: secrets as [string, ...string[]],
    path,
    tls: readTls(env),
    maxBodyBytes: env.int('WEBHOOK_MAX_BODY_BYTES', { default: 1024 * 1024, min: 1024 }),
    dedupTtlSeconds: readDedupTtlSeconds(env),
    maxAgeSeconds: 0,
    enqueueTimeoutMs: env.int('WEBHOOK_ENQUEUE_TIMEOUT_MS', { default: 2000, min: 50, max: 4000 }),
    keepQuarantined: env.int('WEBHOOK_KEEP_QUARANTINED', { default: 10_000, min: 1 }),
    quarantineMaxBytes: env.int('WEBHOOK_QUARANTINE_MAX_BYTES', { default: 100 * 1024 * 1024, min: 1024 }),
    dashboardToken: env.optional('QUEUE_DASHBOARD_TOKEN'),
    dashboardReadOnly: env.bool('QUEUE_DASHBOARD_READ_ONLY', true),
    server: readServerLimits(env),
    ops: readOpsSettings(env, { port }),
    warnings: [],
  }
  config.maxAgeSeconds = readMaxAgeSeconds(env, config.dedupTtlSeconds)
  if (config.quarantineMaxBytes < config.maxBodyBytes)
    env.problem(
      `WEBHOOK_QUARANTINE_MAX_BYTES must be at least WEBHOOK_MAX_BODY_BYTES, so that the largest event fits (got ${config.quarantineMaxBytes} and ${config.maxBodyBytes})`,
    )
  if (config.dashboardToken !== undefined && config.dashboardToken.length < 16) {
    env.problem('QUEUE_DASHBOARD_TOKEN must be at least 16 characters')
  }
  config.warnings = checkProductionSecrets(env, [
    // An HMAC-SHA256 key shorter than its 32-byte output is weaker than the signature it makes; but the
    // platform generates it and the operator cannot lengthen it: a warning, not a refusal.
    { name: 'PF_WEBHOOK_SECRET', values: secrets, minBytes: 32, warnWhenShort: 'the platform generates it' },
    { name: 'QUEUE_DASHBOARD_TOKEN', values: config.dashboardToken ? [config.dashboardToken] : [] },
  ])
  const allowPlainHttp = env.bool('ALLOW_PLAIN_HTTP', false)
  if (env.optional('NODE_ENV') === 'production' && !config.tls && !allowPlainHttp) {
    env.problem(
      'NODE_ENV=production serves webhooks over HTTPS only (the spec: deliveries use HTTPS): set TLS_CERT_FILE and TLS_KEY_FILE, or ALLOW_PLAIN_HTTP=true when TLS ends at an ingress in front of the receiver',
    )
  }
  return env.done(config)
}

/** The worker's settings, read once at start. */
export function loadWorkerConfig(source: Env): WorkerConfig {
  const env = createEnvReader(source)
  const port = env.int('PORT', { default: 3011, min: 0, max: 65535 })
  const config: WorkerConfig = {
    ...readQueueConfig(env),
    port,
    logLevel: env.string('LOG_LEVEL', 'info'),
    handlersPath: env.optional('WEBHOOK_HANDLERS'),
    concurrency: env.int('WORKER_CONCURRENCY', { default: 10, min: 1 }),
    // A job of a killed worker is back in wait at most lock duration + stalled interval later: 25 s.
    lockDurationMs: env.int('WORKER_LOCK_DURATION_MS', { default: 15_000, min: 500 }),
    lockRenewMs: 0,
    stalledIntervalMs: env.int('WORKER_STALLED_INTERVAL_MS', { default: 10_000, min: 500 }),
    onceTtlMs: 0,
    dedupTtlSeconds: 0,
    sessionEnd: readSessionEndSettings(env),
    server: readServerLimits(env, { drainTimeoutMs: 30_000 }),
    ops: readOpsSettings(env, { port }),
  }
  // Renewed three times per lock duration by default: two renewals may be late before the lock is lost.
  config.lockRenewMs = env.int('WORKER_LOCK_RENEW_MS', {
    default: Math.floor(config.lockDurationMs / 3),
    min: 100,
  })
  if (config.lockRenewMs * 2 > config.lockDurationMs)
    env.problem(
      `WORKER_LOCK_RENEW_MS must be at most half of WORKER_LOCK_DURATION_MS, so that one late renewal does not lose the lock (got ${config.lockRenewMs} and ${config.lockDurationMs})`,
    )
  const dedupTtlSeconds = readDedupTtlSeconds(env)
  config.dedupTtlSeconds = dedupTtlSeconds
  config.onceTtlMs =
    env.int('WEBHOOK_ONCE_TTL_SECONDS', { default: dedupTtlSeconds + DAY, min: dedupTtlSeconds + 1 }) * 1000
  env.done()
  return config
}
