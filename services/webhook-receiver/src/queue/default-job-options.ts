import type { DefaultJobOptions } from 'bullmq'

/** What each job gets: attempts and backoff of its handler, and how many finished jobs Redis keeps. */
export interface JobSettings {
  jobAttempts: number
  jobBackoffMs: number
  keepCompleted: number
  keepFailed: number
}

/** What every job of the webhook queue gets, from the receiver's settings (and the dead-letter command's). */
export function defaultJobOptions({
  jobAttempts,
  jobBackoffMs,
  keepCompleted,
  keepFailed,
}: JobSettings): DefaultJobOptions {
  return {
    attempts: jobAttempts,
    backoff: { type: 'exponential', delay: jobBackoffMs, jitter: 0.5 },
    removeOnComplete: { count: keepCompleted },
    removeOnFail: { count: keepFailed },
  }
}
