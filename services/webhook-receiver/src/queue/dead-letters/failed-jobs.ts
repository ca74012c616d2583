import { Job } from 'bullmq'
import { bullmqQueueOf, type WebhookQueue } from '../webhook-queue'

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

/**
 * Every job of the queue's failed set (the dead letters BullMQ keeps), newest first, read one at a time: a job's
 * data is its event's body (up to `WEBHOOK_MAX_BODY_BYTES`), and a page of them at once could be gigabytes. The
 * ids are read first, a page at a time, so that jobs retried meanwhile (a replay) shift no page.
 */
export async function* failedJobs(handle: WebhookQueue): AsyncGenerator<FailedJob> {
  const queue = bullmqQueueOf(handle)
  const ids: string[] = []
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getRanges(['failed'], start, start + PAGE - 1)
    ids.push(...page)
    if (page.length < PAGE) break
  }
  for (const id of ids) {
    const job = await Job.fromId(queue, id)
    // Removed since its id was read: gone, as it would be a moment later.
    if (job) yield describe(job)
  }
}
