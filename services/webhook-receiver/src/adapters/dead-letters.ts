import type { Job, Queue } from 'bullmq'

export interface DeadLetter {
  jobId: string
  webhookId: string | undefined
  event: string
  attempts: number
  failedReason: string
  failedAt: string | undefined
}

const PAGE = 500

async function* failedJobs(queue: Queue): AsyncGenerator<Job> {
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getFailed(start, start + PAGE - 1)
    yield* page
    if (page.length < PAGE) return
  }
}

function describe(job: Job): DeadLetter {
  return {
    jobId: job.id ?? '',
    webhookId: (job.data as { webhookId?: string } | undefined)?.webhookId,
    event: job.name,
    attempts: job.attemptsMade,
    failedReason: job.failedReason,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined,
  }
}

/** Every job whose handler failed for good, newest first. */
export async function listDeadLetters(queue: Queue): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = []
  for await (const job of failedJobs(queue)) letters.push(describe(job))
  return letters
}

/**
 * Sends dead letters back to the worker with a fresh retry budget: the one whose jobId or webhookId is `id`,
 * or all of them when `id` is undefined. The dedup marker is untouched (the job is retried, not re-added).
 */
export async function replayDeadLetters(queue: Queue, id?: string): Promise<DeadLetter[]> {
  const replayed: DeadLetter[] = []
  for await (const job of failedJobs(queue)) {
    const letter = describe(job)
    if (id !== undefined && letter.jobId !== id && letter.webhookId !== id) continue
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true })
    replayed.push(letter)
  }
  return replayed
}
