import { UnrecoverableError, Worker, type Job } from 'bullmq'
import type { Logger } from '@pf/service-kit'
import { createOnce, type Once } from '../create-once'
import type { RedisConnection } from '../redis/create-redis-connection'
import { isUnrecoverable } from './is-unrecoverable'
import { splitTraceData } from '../job-trace-context'
import { createSessionOrdering, type InTurn, type Lateness } from '../ordering/create-session-ordering'
import { takeTurnsInBullmq } from '../ordering/take-turns-in-bullmq'
import type { OrderingMode } from '../ordering/ordering-mode'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { layoutPrefixes } from '../shards/shard-prefixes'
import { shareConcurrency } from '../shards/share-concurrency'

/** A stored event as the worker's processor sees it: no BullMQ type. */
export interface QueuedEvent {
  jobId: string
  /** The event's kind (the job's name). */
  name: string
  /** The event as stored: the verified envelope. */
  data: unknown
  /** The W3C trace context the receiver stored with it (`traceparent`, `tracestate`); absent when untraced. */
  traceContext?: Readonly<Record<string, unknown>>
  webhookId: string | undefined
  /** This attempt, from 1. */
  attempt: number
  maxAttempts: number
  /** `once` for this job (made on first use). */
  readonly once: Once
  /** With `WEBHOOK_ORDERING=session`: older than an event of its session already handed on (else false). */
  late: Lateness
}

/** A `QueuedEvent` of a BullMQ job; `once` is a getter on the prototype, not a closure per job. */
class StoredEvent implements QueuedEvent {
  readonly jobId: string
  readonly name: string
  readonly webhookId: string | undefined
  readonly attempt: number
  readonly maxAttempts: number
  readonly #onceFor: (jobId: string) => Once

  constructor(
    job: Job,
    readonly data: unknown,
    readonly traceContext: QueuedEvent['traceContext'],
    readonly late: Lateness,
    onceFor: (jobId: string) => Once,
  ) {
    this.jobId = job.id ?? ''
    this.name = job.name
    this.webhookId = (job.data as { webhookId?: string } | undefined)?.webhookId
    this.attempt = job.attemptsMade + 1
    this.maxAttempts = job.opts.attempts ?? 1
    this.#onceFor = onceFor
  }

  get once(): Once {
    return this.#onceFor(this.jobId)
  }
}

/** A job that failed: with `dead`, for good (the dead letters), else to be retried. */
export interface FailedEvent {
  name: string
  jobId: string | undefined
  webhookId: string | undefined
  attempt: number
  dead: boolean
}

export interface EventConsumerOptions {
  connection: RedisConnection
  prefix: string
  /** Jobs run at once by this process, all its queues together (`WORKER_CONCURRENCY`; see `shareConcurrency`). */
  concurrency: number
  /** `QUEUE_SHARDS`: the queues to consume, one BullMQ worker each (`shardPrefixes`). */
  shards?: number
  /** `QUEUE_RESHARD_FROM`: the old layout's queues are consumed too, until they are empty and it is unset. */
  reshardFrom?: number
  /** How long a job's lock lasts without renewal: after a crash, the job is picked up again past it. */
  lockDurationMs: number
  /** How often a running job's lock is renewed (BullMQ's `lockRenewTime`). */
  lockRenewMs: number
  /** How often stalled jobs (lock gone, still active) are looked for and handed back. */
  stalledIntervalMs: number
  /** How long `once` remembers a done effect. */
  onceTtlMs: number
  /** `session`: one event of a session at a time, in signed-timestamp order (`createSessionOrdering`). */
  ordering?: OrderingMode
  /** How long a session's ordering state is kept: the receiver's dedup TTL. */
  dedupTtlSeconds?: number
  /** Replicas each write of the ordering state waits for, as the enqueue's; 0 by default. */
  waitReplicas?: number
  /** Runs one event; an error is retried, an unrecoverable one (`isUnrecoverable`) is not. */
  process(event: QueuedEvent): Promise<void>
  onFailed(failed: FailedEvent, error: unknown): void
  logger: Logger
}

/** What consumes the queue, as callers use it; BullMQ's `Worker` stays behind the queue's interface. */
export interface EventConsumer {
  /** Stops taking jobs and waits for the jobs in progress. */
  close(): Promise<void>
  /** A connection error; without a listener Node would throw it. */
  on(event: 'error', listener: (error: Error) => void): unknown
  /** One event processed (counted by the benchmark). */
  on(event: 'completed', listener: () => void): unknown
  /**
   * Why it stopped taking jobs for good, undefined while it takes them (with shards: any shard's). BullMQ's
   * fetch loop does not start again by itself once it has ended (an INFO the Redis user may not run, say):
   * only a restart takes jobs again, so the worker's readiness fails on it.
   */
  stopped(): Error | undefined
}

/**
 * The webhook queues' consumer: a BullMQ worker per shard (`consumeQueue`), and per shard of the old layout while
 * a resharding runs, sharing the process's `concurrency` (`shareConcurrency`). With 1 shard, the one worker.
 */
export function consumeEvents(options: EventConsumerOptions): EventConsumer {
  const { prefix, shards = 1, reshardFrom, concurrency } = options
  const prefixes = layoutPrefixes(prefix, shards, reshardFrom)
  if (prefixes.length === 1) return consumeQueue({ ...options, prefix: prefixes[0]! })
  const shares = shareConcurrency(concurrency, prefixes.length)
  const workers = prefixes.map((one, index) =>
    consumeQueue({ ...options, prefix: one, concurrency: shares[index]! }),
  )
  return {
    async close() {
      await Promise.all(workers.map((worker) => worker.close()))
    },
    on(event: 'error' | 'completed', listener: (error: Error) => void) {
      for (const worker of workers) worker.on(event as 'error', listener)
      return this
    },
    stopped() {
      return workers.find((worker) => worker.stopped())?.stopped()
    },
  }
}

/**
 * The BullMQ worker on one webhook queue. A thrown error is retried with the job's exponential backoff and
 * jitter; an unrecoverable one, or the last attempt, leaves the job in the failed set (the dead letters). A
 * worker killed mid-job loses nothing: its lock expires and the stalled-job check hands the job to another
 * worker, at most lock duration + stalled interval later (a check puts every active job in the stalled set,
 * renewals take them out, the next check after the lock lapsed moves the job back to wait).
 */
function consumeQueue({
  connection,
  prefix,
  concurrency,
  lockDurationMs,
  lockRenewMs,
  stalledIntervalMs,
  onceTtlMs,
  ordering = 'off',
  dedupTtlSeconds = 7 * 24 * 60 * 60,
  waitReplicas = 0,
  process,
  onFailed,
  logger,
}: EventConsumerOptions): EventConsumer {
  const queueKeyPrefix = `${prefix}:${WEBHOOK_QUEUE_NAME}:`
  const onceFor = createOnce({ connection, queueKeyPrefix, ttlMs: onceTtlMs })
  const inTurn: InTurn | undefined =
    ordering === 'session'
      ? createSessionOrdering({
          connection,
          queueKeyPrefix,
          queueKeys: () => worker.keys as never,
          ttlMs: dedupTtlSeconds * 1000,
          parkMs: lockDurationMs + stalledIntervalMs,
          waitReplicas,
          waitTimeoutMs: Math.max(1, Math.floor(lockDurationMs / 3)),
          logger,
          turns: () => turns,
        })
      : undefined
  const worker = new Worker(
    WEBHOOK_QUEUE_NAME,
    async (job, token) => {
      // The same on every attempt and after a replay: each is a span of the enqueue's trace.
      const { event, carrier } = splitTraceData(job.data)
      const handle = (late: Lateness) => handleJob(job, event, carrier, late)
      if (inTurn) await inTurn(job, token ?? '', event, handle)
      else await handle(false)
    },
    {
      connection,
      prefix,
      concurrency,
      lockDuration: lockDurationMs,
      lockRenewTime: lockRenewMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 2,
      // Started below, once the fetch takes sessions' turns (`takeTurnsInBullmq`), before its first fetch.
      autorun: false,
    },
  )
  const turns =
    ordering === 'session'
      ? takeTurnsInBullmq(worker, connection, {
          ttlMs: dedupTtlSeconds * 1000,
          parkMs: lockDurationMs + stalledIntervalMs,
          waitReplicas,
          logger,
        })
      : undefined
  let stoppedBy: Error | undefined
  let closing = false
  // run() settles only when its fetch loop has ended: a rejection leaves the worker taking nothing, for good.
  worker.run().catch((error: unknown) => {
    if (closing) return
    stoppedBy = error instanceof Error ? error : new Error(String(error))
    // The error's own fields only: a Redis reply error carries the command's arguments, which may be job data.
    const { name: type, message, stack } = stoppedBy
    logger.error(
      { err: { type, message, stack }, queuePrefix: prefix },
      'worker stopped taking jobs from its queue for good: /ready fails until the process is restarted',
    )
  })
  async function handleJob(job: Job, event: unknown, carrier: QueuedEvent['traceContext'], late: Lateness) {
    try {
      await process(new StoredEvent(job, event, carrier, late, onceFor))
    } catch (error) {
      if (!isUnrecoverable(error)) throw error
      // BullMQ keeps the stack of what is thrown here: the handler's own (its file and line), not this line's.
      const unrecoverable = new UnrecoverableError((error as Error).message)
      unrecoverable.stack = (error as Error).stack ?? unrecoverable.stack
      throw unrecoverable
    }
  }
  worker.on('failed', (job, error) => {
    if (!job) return
    const dead = job.attemptsMade >= (job.opts.attempts ?? 1) || isUnrecoverable(error)
    const webhookId = (job.data as { webhookId?: string } | undefined)?.webhookId
    onFailed({ name: job.name, jobId: job.id, webhookId, attempt: job.attemptsMade, dead }, error)
  })
  worker.on('error', (error) => logger.warn({ err: error }, 'worker connection error (reconnecting)'))
  return {
    async close() {
      closing = true
      await worker.close()
    },
    on(event: 'error' | 'completed', listener: (error: Error) => void) {
      worker.on(event as 'error', listener)
      return this
    },
    stopped: () => stoppedBy,
  }
}
