import { validateWebhookEvent } from '@pf/schemas'
import {
  failedJobs,
  listQuarantined,
  markRetryLate,
  readQuarantined,
  releaseQuarantined,
  type FailedJob,
  type OrderingMode,
  type QuarantineReason,
  type QuarantineSummary,
  type WebhookQueue,
} from '../queue'

/** Why an event waits for an operator: its handler failed for good, or it was quarantined at the door. */
export type DeadLetterReason = 'handler_failed' | QuarantineReason

export interface DeadLetter {
  /** The job's id, or the quarantined event's: what `replay` takes, with the webhookId. */
  jobId: string
  webhookId: string | undefined
  event: string
  reason: DeadLetterReason
  attempts: number
  /** The handler's error, the validation errors, or the timestamp against the window. */
  failedReason: string
  failedAt: string | undefined
}

/** A dead letter `replay` did not hand on, and why: it still fails the schema. */
export interface StillInvalid extends DeadLetter {
  errors: string
}

/** A failed job as a dead letter (its body left out). */
export function describeJob(job: FailedJob): DeadLetter {
  return {
    jobId: job.jobId,
    webhookId: job.webhookId,
    event: job.name,
    reason: 'handler_failed',
    attempts: job.attempts,
    failedReason: job.failedReason,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined,
  }
}

/** A quarantined event as a dead letter. */
export function describeQuarantined(event: QuarantineSummary): DeadLetter {
  return {
    jobId: event.id,
    webhookId: event.webhookId,
    event: event.event ?? '',
    reason: event.reason,
    attempts: 0,
    failedReason: event.detail,
    failedAt: event.receivedAt,
  }
}

/**
 * Every job whose handler failed for good, and every quarantined event, of every shard, newest first; no body
 * is held: the failed jobs' are read one at a time, the quarantine's not at all.
 */
export async function listDeadLetters(queues: WebhookQueue | WebhookQueue[]): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = []
  for (const queue of [queues].flat()) {
    for await (const job of failedJobs(queue)) letters.push(describeJob(job))
    for (const event of await listQuarantined(queue)) letters.push(describeQuarantined(event))
  }
  // ISO 8601 UTC sorts as text.
  return letters.sort((a, b) => (b.failedAt ?? '').localeCompare(a.failedAt ?? ''))
}

const parse = (json: string): unknown => {
  try {
    return JSON.parse(json)
  } catch {
    return undefined
  }
}

/**
 * Hands dead letters back to the worker, the one whose jobId or webhookId is `id`, or all of them when `id` is
 * undefined, each validated again against `@pf/schemas` first: what now passes (after a schema or handler fix)
 * is handed on, what still fails stays and is returned with its errors. A failed job is retried with a fresh
 * attempt budget; a quarantined event becomes a job, whatever its age (the operator's replay skips the age
 * check: it is how an event of the platform's manual replay, or from a skewed clock, is let in). Dedup markers
 * are untouched. Bodies are read one at a time. With `WEBHOOK_ORDERING=session` every replay is handed on late.
 */
export async function replayDeadLetters(
  queues: WebhookQueue | WebhookQueue[],
  id?: string,
  options: { ordering?: OrderingMode } = {},
): Promise<{ replayed: DeadLetter[]; stillInvalid: StillInvalid[] }> {
  const replayed: DeadLetter[] = []
  const stillInvalid: StillInvalid[] = []
  // Each shard's dead letters go back to their own queue: the session's, where its ordering state is.
  for (const queue of [queues].flat()) {
    const one = await replayQueue(queue, id, options)
    replayed.push(...one.replayed)
    stillInvalid.push(...one.stillInvalid)
  }
  return { replayed, stillInvalid }
}

async function replayQueue(
  queue: WebhookQueue,
  id: string | undefined,
  { ordering = 'off' }: { ordering?: OrderingMode },
): Promise<{ replayed: DeadLetter[]; stillInvalid: StillInvalid[] }> {
  const replayed: DeadLetter[] = []
  const stillInvalid: StillInvalid[] = []
  const chosen = (letter: DeadLetter) => id === undefined || letter.jobId === id || letter.webhookId === id
  for await (const job of failedJobs(queue)) {
    const letter = describeJob(job)
    if (!chosen(letter)) continue
    const checked = validateWebhookEvent(job.data)
    if (!checked.ok) stillInvalid.push({ ...letter, errors: checked.error })
    else {
      if (ordering === 'session') await markRetryLate(queue, job.data, letter.jobId)
      await job.retry()
      replayed.push(letter)
    }
  }
  for (const summary of await listQuarantined(queue)) {
    const letter = describeQuarantined(summary)
    if (!chosen(letter)) continue
    const event = await readQuarantined(queue, summary.id)
    // Released or trimmed since it was listed.
    if (!event) continue
    const data = parse(event.json)
    const checked = validateWebhookEvent(data)
    if (!checked.ok) stillInvalid.push({ ...letter, errors: checked.error })
    else {
      await releaseQuarantined(queue, event, data as object, ordering === 'session')
      replayed.push(letter)
    }
  }
  return { replayed, stillInvalid }
}
