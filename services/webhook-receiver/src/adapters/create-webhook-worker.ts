import { UnrecoverableError, Worker } from 'bullmq'
import type { Logger } from '@pf/service-kit'
import type { WebhookHandlers } from '@pf/schemas'
import { isUnrecoverable } from '../core/is-unrecoverable'
import { WEBHOOK_QUEUE_NAME } from './queue-names'
import { dispatchEvent } from '../core/dispatch-event'
import type { WorkerMetrics } from '../metrics'
import { createOnce } from './create-once'
import type { RedisConnection } from './create-redis-connection'

export interface WebhookWorkerOptions {
  connection: RedisConnection
  prefix: string
  handlers: WebhookHandlers
  logger: Logger
  metrics: WorkerMetrics
  concurrency: number
  /** How long a job's lock lasts without renewal: after a crash, the job is picked up again past it. */
  lockDurationMs: number
  /** How often a running job's lock is renewed (BullMQ's `lockRenewTime`). */
  lockRenewMs: number
  /** How often stalled jobs (lock gone, still active) are looked for and handed back. */
  stalledIntervalMs: number
  /** How long `context.once` remembers a done effect. */
  onceTtlMs: number
}

/**
 * The BullMQ worker: each job is validated and dispatched to the handler of its kind. A thrown error is
 * retried with the job's exponential backoff and jitter; an unrecoverable one, or the last attempt, leaves the
 * job in the failed set (the dead letters). A worker killed mid-job loses nothing: its lock expires and the
 * stalled-job check hands the job to another worker, at most lock duration + stalled interval later (a check
 * puts every active job in the stalled set, renewals take them out, the next check after the lock lapsed moves
 * the job back to wait). Handlers get `context.once` for effects that must happen once (`createOnce`).
 */
export function createWebhookWorker({
  connection,
  prefix,
  handlers,
  logger,
  metrics,
  concurrency,
  lockDurationMs,
  lockRenewMs,
  stalledIntervalMs,
  onceTtlMs,
}: WebhookWorkerOptions): Worker {
  const { processed, handlerSeconds: duration } = metrics
  const onceFor = createOnce({
    connection,
    queueKeyPrefix: `${prefix}:${WEBHOOK_QUEUE_NAME}:`,
    ttlMs: onceTtlMs,
  })

  const worker = new Worker(
    WEBHOOK_QUEUE_NAME,
    async (job) => {
      const webhookId = (job.data as { webhookId?: string } | undefined)?.webhookId
      let bound: Logger | undefined
      const context = {
        jobId: job.id ?? '',
        attempt: job.attemptsMade + 1,
        maxAttempts: job.opts.attempts ?? 1,
        // Both made on first use: a pino child costs more than a no-op handler, and most handlers never log.
        get logger() {
          return (bound ??= logger.child({ event: job.name, webhookId, jobId: job.id }))
        },
        get once() {
          return onceFor(job.id ?? '')
        },
      }
      const stopTimer = duration.startTimer({ event: job.name })
      try {
        const outcome = await dispatchEvent(job.data, handlers, context)
        processed.inc({ event: job.name, outcome: outcome === 'handled' ? 'handled' : 'no_handler' })
      } catch (error) {
        if (isUnrecoverable(error)) throw new UnrecoverableError((error as Error).message)
        throw error
      } finally {
        stopTimer()
      }
    },
    {
      connection,
      prefix,
      concurrency,
      lockDuration: lockDurationMs,
      lockRenewTime: lockRenewMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 2,
    },
  )

  worker.on('failed', (job, error) => {
    if (!job) return
    const dead = job.attemptsMade >= (job.opts.attempts ?? 1) || isUnrecoverable(error)
    processed.inc({ event: job.name, outcome: dead ? 'dead_letter' : 'retry' })
    const fields = {
      event: job.name,
      webhookId: job.data?.webhookId,
      jobId: job.id,
      attempt: job.attemptsMade,
      err: error,
    }
    if (dead) logger.error(fields, 'handler failed for good: job is in the dead letters')
    else logger.warn(fields, 'handler failed: will retry')
  })
  worker.on('error', (error) => logger.warn({ err: error }, 'worker connection error (reconnecting)'))
  return worker
}
