import { createEnvReader, type Env } from '@pf/service-kit'
import { readSessionEndSettings, type SessionEndSettings } from '../worker/session-end-settings'
import { DAY, readDedupTtlSeconds } from './read-dedup-ttl-seconds'
import { readQueueSettings, type QueueConfig } from './read-queue-settings'
import { readServingSettings, type ServingConfig } from './read-serving-settings'

export interface WorkerConfig extends QueueConfig, ServingConfig {
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
}

/**
 * The worker's settings (`dist/worker.js`), read once at start. The ops server's `drainTimeoutMs` also bounds
 * the wait for jobs in progress on SIGTERM: 30 s by default.
 */
export function loadWorkerConfig(source: Env): WorkerConfig {
  const env = createEnvReader(source)
  const port = env.int('PORT', { default: 3011, min: 0, max: 65535 })
  const queue = readQueueSettings(env)
  const logLevel = env.string('LOG_LEVEL', 'info')
  const handlersPath = env.optional('WEBHOOK_HANDLERS')
  const concurrency = env.int('WORKER_CONCURRENCY', { default: 10, min: 1 })
  // A job of a killed worker is back in wait at most lock duration + stalled interval later: 25 s.
  const lockDurationMs = env.int('WORKER_LOCK_DURATION_MS', { default: 15_000, min: 500 })
  const stalledIntervalMs = env.int('WORKER_STALLED_INTERVAL_MS', { default: 10_000, min: 500 })
  const sessionEnd = readSessionEndSettings(env)
  const serving = readServingSettings(env, port, { drainTimeoutMs: 30_000 })
  // Renewed three times per lock duration by default: two renewals may be late before the lock is lost.
  const lockRenewMs = env.int('WORKER_LOCK_RENEW_MS', { default: Math.floor(lockDurationMs / 3), min: 100 })
  if (lockRenewMs * 2 > lockDurationMs)
    env.problem(
      `WORKER_LOCK_RENEW_MS must be at most half of WORKER_LOCK_DURATION_MS, so that one late renewal does not lose the lock (got ${lockRenewMs} and ${lockDurationMs})`,
    )
  const dedupTtlSeconds = readDedupTtlSeconds(env)
  const onceTtlMs =
    env.int('WEBHOOK_ONCE_TTL_SECONDS', { default: dedupTtlSeconds + DAY, min: dedupTtlSeconds + 1 }) * 1000
  return env.done({
    ...queue,
    port,
    logLevel,
    handlersPath,
    concurrency,
    lockDurationMs,
    lockRenewMs,
    stalledIntervalMs,
    onceTtlMs,
    dedupTtlSeconds,
    sessionEnd,
    ...serving,
  })
}
