import { SpanKind } from '@opentelemetry/api'
import { extractTraceContext, inSpan, type Logger } from '@pf/service-kit'
import type { HandlerContext, WebhookHandlers } from '@pf/schemas'
import type { WorkerMetrics } from '../metrics'
import { consumeEvents, type EventConsumer, type EventConsumerOptions, type QueuedEvent } from '../queue'
import { dispatchEvent } from './dispatch-event'

export type WebhookWorkerOptions = Omit<EventConsumerOptions, 'process' | 'onFailed'> & {
  handlers: WebhookHandlers
  metrics: WorkerMetrics
}

/**
 * The webhook worker: each stored event is validated and dispatched to the handler of its kind
 * (`dispatchEvent`), counted and timed, its failures logged (a retry at warn, a dead letter at error). Handlers
 * get `context.once` for effects that must happen once (`createOnce`); retries, locks and the dead letters are
 * the queue's (`consumeEvents`).
 */
export function createWebhookWorker({
  handlers,
  logger,
  metrics,
  ...queue
}: WebhookWorkerOptions): EventConsumer {
  const { processed, handlerSeconds: duration } = metrics
  return consumeEvents({
    ...queue,
    logger,
    async process(job) {
      const context = new JobContext(job, logger)
      const started = performance.now()
      try {
        // A child of the receiver's enqueue span; a handler's own spans (OpenTelemetry API) are children of it.
        await inSpan('webhook.process', processSpan(job), async (span) => {
          const outcome = await dispatchEvent(job.data, handlers, context)
          span.setAttribute('pf.outcome', outcome)
          processed.inc({ event: job.name, outcome: outcome === 'handled' ? 'handled' : 'no_handler' })
        })
      } finally {
        duration.observe({ event: job.name }, (performance.now() - started) / 1000)
      }
    },
    onFailed({ name, jobId, webhookId, attempt, dead }, error) {
      processed.inc({ event: name, outcome: dead ? 'dead_letter' : 'retry' })
      const fields = { event: name, webhookId, jobId, attempt, err: error }
      if (dead) logger.error(fields, 'handler failed for good: job is in the dead letters')
      else logger.warn(fields, 'handler failed: will retry')
    },
  })
}

/**
 * A handler's context. A class, so that its lazy parts are getters on the prototype: an object literal with
 * getters makes two closures per job, which the worker's profile showed in its collections.
 */
class JobContext implements HandlerContext {
  readonly jobId: string
  readonly attempt: number
  readonly maxAttempts: number
  readonly late: QueuedEvent['late']
  #logger: Logger | undefined
  readonly #job: QueuedEvent
  readonly #parent: Logger

  constructor(job: QueuedEvent, parent: Logger) {
    this.jobId = job.jobId
    this.attempt = job.attempt
    this.maxAttempts = job.maxAttempts
    this.late = job.late
    this.#job = job
    this.#parent = parent
  }

  /** Made on first use: a pino child costs more than a no-op handler, and most handlers never log. */
  get logger(): Logger {
    const job = this.#job
    return (this.#logger ??= this.#parent.child({
      event: job.name,
      webhookId: job.webhookId,
      jobId: job.jobId,
    }))
  }

  get once(): QueuedEvent['once'] {
    return this.#job.once
  }
}

/** The processing span's parent (the trace context the job carries) and attributes: ids and counts only. */
function processSpan(job: QueuedEvent) {
  return {
    kind: SpanKind.CONSUMER,
    parent: extractTraceContext(job.traceContext),
    attributes: {
      'pf.event': job.name,
      'pf.webhook_id': job.webhookId ?? '',
      'pf.job_id': job.jobId,
      'pf.attempt': job.attempt,
      'pf.max_attempts': job.maxAttempts,
    },
  }
}
