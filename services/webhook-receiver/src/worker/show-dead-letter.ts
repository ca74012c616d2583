import { failedJobs, listQuarantined, readQuarantined, type WebhookQueue } from '../queue'
import { describeJob, describeQuarantined, type DeadLetter } from './dead-letters'

/** One dead letter whole: what `dead-letters show <id>` prints. */
export interface DeadLetterDetail extends DeadLetter {
  /** When the event came in (ISO 8601): the job's enqueueing, or the quarantine's arrival. */
  receivedAt: string | undefined
  /** The handler's stack at each failed attempt, oldest first (a failed job only). */
  stacktrace: string[]
  /** The event as stored: the job's data, or the quarantined body (parsed when it is JSON, else as it came). */
  body: unknown
}

const parsed = (json: string): unknown => {
  try {
    return JSON.parse(json)
  } catch {
    return json
  }
}

/**
 * The dead letter whose jobId or webhookId is `id`, with everything kept about it: the event, the reason
 * (`handler_failed` with the handler's error and stack, or a quarantine's `invalid_data` with the validation
 * errors, `stale`, `future`), the attempts and the times; undefined when there is none. Reads one body at a
 * time: the failed jobs' one by one until it is found, then the quarantine's listing (no bodies) and its one.
 */
export async function showDeadLetter(
  queues: WebhookQueue | WebhookQueue[],
  id: string,
): Promise<DeadLetterDetail | undefined> {
  for (const queue of [queues].flat()) {
    const found = await showInQueue(queue, id)
    if (found) return found
  }
  return undefined
}

async function showInQueue(queue: WebhookQueue, id: string): Promise<DeadLetterDetail | undefined> {
  for await (const job of failedJobs(queue)) {
    if (job.jobId !== id && job.webhookId !== id) continue
    const receivedAt = job.enqueuedAt ? new Date(job.enqueuedAt).toISOString() : undefined
    return { ...describeJob(job), receivedAt, stacktrace: job.stacktrace, body: job.data }
  }
  const summary = (await listQuarantined(queue)).find((e) => e.id === id || e.webhookId === id)
  if (!summary) return undefined
  const event = await readQuarantined(queue, summary.id)
  return {
    ...describeQuarantined(summary),
    receivedAt: summary.receivedAt,
    stacktrace: [],
    body: event ? parsed(event.json) : undefined,
  }
}

/** A dead letter for a person: one field a line, then the stack and the event. */
export function formatDeadLetter(detail: DeadLetterDetail): string {
  const lines = [
    `dead letter ${detail.jobId}`,
    `  event        ${detail.event}  webhookId ${detail.webhookId ?? '(none)'}`,
    `  reason       ${detail.reason}: ${detail.failedReason}`,
    `  attempts     ${detail.attempts}`,
    `  received     ${detail.receivedAt ?? '(unknown)'}`,
    `  failed       ${detail.failedAt ?? '(unknown)'}`,
  ]
  const stack = detail.stacktrace.at(-1)
  if (stack) lines.push('  stack (last attempt)', ...stack.split('\n').map((line) => `    ${line}`))
  lines.push(
    '  the event',
    ...JSON.stringify(detail.body, null, 2)
      .split('\n')
      .map((line) => `    ${line}`),
  )
  return lines.join('\n')
}
