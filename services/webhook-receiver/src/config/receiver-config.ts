import { readFileSync } from 'node:fs'
import { checkProductionSecrets, createEnvReader, type Env, type EnvReader } from '@pf/service-kit'
import { HOUR, MIN_MAX_AGE_SECONDS, readDedupTtlSeconds } from './read-dedup-ttl-seconds'
import { readJobSettings, type JobConfig } from './read-job-settings'
import { readQueueSettings, type QueueConfig } from './read-queue-settings'
import { readServingSettings, type ServingConfig } from './read-serving-settings'

export interface ReceiverConfig extends QueueConfig, JobConfig, ServingConfig {
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
  /** What start-up should say at warn level, once the logger exists (a short webhook secret in production). */
  warnings: string[]
}

/**
 * How old a signed `timestamp` may be: shorter than the dedup window, so that a delivery captured and replayed
 * once its webhookId is forgotten is `stale`, never taken for a new event; at least the platform's retry
 * horizon plus 5 minutes, so that its last retry is never stale.
 */
function readMaxAgeSeconds(env: EnvReader, dedupTtlSeconds: number): number {
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

function readTls(env: EnvReader): ReceiverConfig['tls'] {
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

/** The receiver's settings (`dist/main.js`, `dist/doctor.js`), read once at start; throws a `ConfigError` naming every bad one. */
export function loadReceiverConfig(source: Env): ReceiverConfig {
  const env = createEnvReader(source)
  const secrets = env.list('PF_WEBHOOK_SECRET')
  if (secrets.length === 0) env.problem('PF_WEBHOOK_SECRET is required (comma-separated during a rotation)')
  const path = env.string('WEBHOOK_PATH', '/webhooks/pf')
  if (!path.startsWith('/')) env.problem(`WEBHOOK_PATH must start with / (got "${path}")`)
  const port = env.int('PORT', { default: 3001, min: 0, max: 65535 })
  const queue = readQueueSettings(env)
  const jobs = readJobSettings(env)
  const logLevel = env.string('LOG_LEVEL', 'info')
  const tls = readTls(env)
  const maxBodyBytes = env.int('WEBHOOK_MAX_BODY_BYTES', { default: 1024 * 1024, min: 1024 })
  const dedupTtlSeconds = readDedupTtlSeconds(env)
  const config: ReceiverConfig = {
    ...queue,
    ...jobs,
    port,
    logLevel,
    secrets: secrets as [string, ...string[]],
    path,
    tls,
    maxBodyBytes,
    dedupTtlSeconds,
    maxAgeSeconds: 0,
    enqueueTimeoutMs: env.int('WEBHOOK_ENQUEUE_TIMEOUT_MS', { default: 2000, min: 50, max: 4000 }),
    keepQuarantined: env.int('WEBHOOK_KEEP_QUARANTINED', { default: 10_000, min: 1 }),
    quarantineMaxBytes: env.int('WEBHOOK_QUARANTINE_MAX_BYTES', { default: 100 * 1024 * 1024, min: 1024 }),
    dashboardToken: env.optional('QUEUE_DASHBOARD_TOKEN'),
    dashboardReadOnly: env.bool('QUEUE_DASHBOARD_READ_ONLY', true),
    ...readServingSettings(env, port),
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
