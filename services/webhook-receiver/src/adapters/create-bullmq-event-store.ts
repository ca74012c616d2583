import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import type { Redis } from 'ioredis'
import type { WebhookEnvelope } from '@pf/schemas'
import { withTimeout, type Logger } from '@pf/service-kit'
import type { ReceiverConfig } from '../config'
import { StoreUnavailableError } from '../errors'
import type { AcceptOutcome, EventStore } from '../core/event-store'
import { checkEvictionPolicy } from './check-eviction-policy'
import { producerConnectionOptions } from './create-redis-connection'
import { WEBHOOK_QUEUE_NAME } from './queue-names'

export type BullmqEventStoreOptions = Pick<
  ReceiverConfig,
  | 'redisUrl'
  | 'dedupTtlSeconds'
  | 'enqueueTimeoutMs'
  | 'jobAttempts'
  | 'jobBackoffMs'
  | 'keepCompleted'
  | 'keepFailed'
> & {
  prefix: string
  /** Connection losses and recoveries are logged here; none when absent (tests). */
  logger?: Logger
}

export interface BullmqEventStore {
  store: EventStore
  /** The BullMQ queue itself, for what only BullMQ can do (the bull-board dashboard, dead letters, tests). */
  queue: Queue
}

/**
 * Stores each event as a BullMQ job, deduplicated by `webhookId`.
 *
 * Dedup uses BullMQ's `deduplication` option in throttle mode (an `id` with a `ttl`): the marker key is set
 * inside the same Lua script that creates the job, so accepting and marking are one atomic step; a crash can
 * neither store an event without its marker nor mark one without storing it. With a `ttl` the marker also
 * survives the job's completion and trimming (BullMQ 5 removes it only on an explicit `job.remove()`), so a
 * redelivery stays a duplicate for the whole window even after Redis has forgotten the job. A plain `jobId`
 * would not: a removed job no longer blocks its id.
 */
export function createBullmqEventStore({
  redisUrl,
  prefix,
  dedupTtlSeconds,
  enqueueTimeoutMs,
  jobAttempts,
  jobBackoffMs,
  keepCompleted,
  keepFailed,
  logger,
}: BullmqEventStoreOptions): BullmqEventStore {
  const queue = new Queue(WEBHOOK_QUEUE_NAME, {
    connection: producerConnectionOptions(redisUrl),
    prefix,
    defaultJobOptions: {
      attempts: jobAttempts,
      backoff: { type: 'exponential', delay: jobBackoffMs, jitter: 0.5 },
      removeOnComplete: { count: keepCompleted },
      removeOnFail: { count: keepFailed },
    },
  })
  // A Queue emits 'error' on connection loss; without a listener Node would crash the process.
  queue.on('error', () => {})

  // BullMQ's client is a plain ioredis client; its declared type only lists the commands BullMQ itself uses.
  const client = () => queue.client as unknown as Promise<Redis>
  if (logger) watchConnection(queue, client, logger)

  const store: EventStore = {
    async accept(event: WebhookEnvelope): Promise<AcceptOutcome> {
      // A fresh job id per request: when BullMQ deduplicates, it hands back the first job's id instead.
      const jobId = randomUUID()
      try {
        const job = await withTimeout(
          queue.add(event.event, event, {
            jobId,
            deduplication: { id: event.webhookId, ttl: dedupTtlSeconds * 1000 },
          }),
          enqueueTimeoutMs,
          'storing the event in Redis',
        )
        return job.id === jobId ? 'accepted' : 'duplicate'
      } catch (cause) {
        throw new StoreUnavailableError('event store unavailable, retry later', { cause })
      }
    },
    async ping() {
      await withTimeout(
        client().then((redis) => redis.ping()),
        enqueueTimeoutMs,
        'Redis PING',
      )
    },
    async counts() {
      return withTimeout(
        queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
        enqueueTimeoutMs,
        'counting jobs',
      )
    },
    async close() {
      // BullMQ 5 emits an unhandled 'error' (a crash) when a queue is closed while its connection is still
      // being set up, whatever listeners are attached: let the set-up settle first. If Redis cannot be reached
      // within the time-out there is nothing to flush, and the process is on its way out.
      const settled = await withTimeout(
        queue.waitUntilReady().then(
          () => true,
          () => true,
        ),
        enqueueTimeoutMs,
        'connecting to Redis',
      ).catch(() => false)
      if (settled) await queue.close()
      // If Redis was away, quit failed and ioredis would keep reconnecting: stop it for good.
      await queue.disconnect().catch(() => {})
    },
  }
  return { store, queue }
}

/** Logs when Redis goes away and comes back (503s in between), and checks its eviction policy once connected. */
function watchConnection(queue: Queue, client: () => Promise<Redis>, logger: Logger): void {
  let connected = false
  queue.on('error', (error) => {
    if (connected) logger.warn({ err: error }, 'lost Redis: answering 503 until it is back')
    connected = false
  })
  void client().then(
    (redis) => {
      redis.on('ready', () => {
        if (!connected) logger.info('connected to Redis')
        connected = true
      })
      connected = redis.status === 'ready'
      if (connected) logger.info('connected to Redis')
      return checkEvictionPolicy(redis, logger)
    },
    () => {}, // the queue closed before it ever connected: nothing to check
  )
}
