import type { EnvReader } from '@pf/service-kit'
import type { JobSettings } from '../queue'

/** What each job gets: attempts and backoff of its handler, and how many finished jobs Redis keeps. */
export type JobConfig = JobSettings

/** `WEBHOOK_JOB_*`, `WEBHOOK_KEEP_*`: read where jobs are added (the receiver, and `dead-letters replay`). */
export function readJobSettings(env: EnvReader): JobConfig {
  return {
    jobAttempts: env.int('WEBHOOK_JOB_ATTEMPTS', { default: 10, min: 1 }),
    jobBackoffMs: env.int('WEBHOOK_JOB_BACKOFF_MS', { default: 1000, min: 1 }),
    keepCompleted: env.int('WEBHOOK_KEEP_COMPLETED', { default: 1000, min: 0 }),
    keepFailed: env.int('WEBHOOK_KEEP_FAILED', { default: 10_000, min: 1 }),
  }
}
