import type { Job, Queue } from 'bullmq'

/** A job whose handler failed for good, as the dead letters show it: no BullMQ type. */
export interface FailedJob {
  jobId: string
  webhookId: string | undefined
  name: string
  attempts: number
  failedReason: string
  /** When it failed, ms since the epoch. */
  finishedOn: number | undefined
  /** When the receiver enqueued it, ms since the epoch. */
  enqueuedAt: number | undefined
  /** The handler's stack at each failed attempt, oldest first (`dead-letters show`). */
  stacktrace: string[]
  data: unknown
  /** Back to wait with a fresh attempt budget. */
  retry(): Promise<void>
}

const PAGE = 500

const describe = (job: Job): FailedJob => ({
  jobId: job.id ?? '',
  webhookId: (job.data as { webhookId?: string } | undefined)?.webhookId,
  name: job.name,
  attempts: job.attemptsMade,
  failedReason: job.failedReason,
  finishedOn: job.finishedOn,
  enqueuedAt: job.timestamp,
  stacktrace: job.stacktrace ?? [],
  data: job.data,
  retry: () => job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }),
})

/** Every job of the queue's failed set (the dead letters BullMQ keeps), a page at a time. */
export async function* failedJobs(queue: Queue): AsyncGenerator<FailedJob> {
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getFailed(start, start + PAGE - 1)
    for (const job of page) yield describe(job)
    if (page.length < PAGE) return
  }
}
