import type { DefaultJobOptions } from 'bullmq'
import type { JobConfig } from '../config'

/** What every job of the webhook queue gets, from the receiver's settings (and the dead-letter command's). */
export function defaultJobOptions({
  jobAttempts,
  jobBackoffMs,
  keepCompleted,
  keepFailed,
}: JobConfig): DefaultJobOptions {
  return {
    attempts: jobAttempts,
    backoff: { type: 'exponential', delay: jobBackoffMs, jitter: 0.5 },
    removeOnComplete: { count: keepCompleted },
    removeOnFail: { count: keepFailed },
  }
}
