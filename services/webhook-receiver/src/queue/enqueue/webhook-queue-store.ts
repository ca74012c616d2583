import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import { injectTraceContext, withTimeout, type Logger, type TraceCarrier } from '@pf/service-kit'
import { StoreUnavailableError } from '../../errors'
import { checkEvictionPolicy } from '../redis/check-eviction-policy'
import { countOnlineReplicas } from '../redis/count-online-replicas'
import { bullmqConnection, type RedisConnection } from '../redis/create-redis-connection'
import { createReplicaCheck } from '../redis/create-replica-check'
import { defaultJobOptions, type JobSettings } from '../default-job-options'
import type { EventStore, QuarantineEntry, QuarantineOutcome } from '../event-store'
import { oldestWaitingAt } from './oldest-waiting-at'
import type { WebhookQueue } from '../webhook-queue'
import { quarantineKeys, storeQuarantined } from '../quarantine/quarantine'
import type { OrderingMode } from '../ordering/ordering-mode'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { describeRedisTarget, type RedisTarget } from '../redis/redis-target'

/** What either event store is built from: the receiver's Redis, queue and job settings. */
export interface EventStoreOptions extends JobSettings {
  redis: RedisTarget
  prefix: string
  dedupTtlSeconds: number
  enqueueTimeoutMs: number
  keepQuarantined: number
  /** Bytes the quarantine keeps, all its events together (`WEBHOOK_QUARANTINE_MAX_BYTES`). */
  quarantineMaxBytes: number
  /** Connection losses and recoveries are logged here; none when absent (tests). */
  logger?: Logger
  /** `session`: each stored event joins its session's pending set in the same atomic write (`WEBHOOK_ORDERING`). */
  ordering?: OrderingMode
}

/** An event store, and the queue behind it (for the dashboard and the dead letters). */
export interface OpenedEventStore {
  store: EventStore
  queue: WebhookQueue
}

/** The webhook queue as both stores open it: BullMQ owns its connection (a Cluster client is ours to close). */
export function openWebhookQueue({ redis, prefix, ...jobs }: EventStoreOptions) {
  const queueConnection = bullmqConnection(redis, 'producer')
  const queue = new Queue(WEBHOOK_QUEUE_NAME, {
    connection: queueConnection.connection,
    prefix,
    defaultJobOptions: defaultJobOptions(jobs),
  })
  // A Queue emits 'error' on connection loss; without a listener Node would crash the process.
  queue.on('error', () => {})
  // BullMQ's client is a plain ioredis client; its declared type only lists the commands BullMQ itself uses.
  const client = () => queue.client as unknown as Promise<RedisConnection>
  return { queue, client, ownedConnection: queueConnection.owned }
}

export interface StoreAround {
  options: EventStoreOptions
  opened: ReturnType<typeof openWebhookQueue>
  /** Where events are written, quarantined ones included, and where WAIT and the replica check run. */
  writer: () => Promise<RedisConnection>
  /** The connection of `writer` when it is the store's own (not the queue's), watched for readiness. */
  ownConnection?: RedisConnection
  /** Replicas each write waits for (`WAIT`), within `waitTimeoutMs`. */
  waitReplicas: number
  waitTimeoutMs: number
  /**
   * Adds the event's job, its data carrying `trace` (`JOB_TRACE_FIELD`); resolves with `jobId`, or with the
   * marker of an earlier delivery of its webhookId.
   */
  add(
    event: { event: string; webhookId: string; timestamp?: unknown; data?: unknown },
    json: string,
    jobId: string,
    trace: TraceCarrier,
  ): Promise<string>
}

/**
 * What both event stores share around their one difference, how a job is added: deduplicated quarantine
 * (`quarantine.ts`, the same markers), the replica check (`createReplicaCheck`) at start, after every
 * reconnection and in `ready()`, the queue-depth counts, a bounded close, and every write within
 * `enqueueTimeoutMs`, any failure being the `StoreUnavailableError` (503) that makes the platform retry.
 */
export function webhookQueueStore(around: StoreAround): EventStore {
  const { options, opened, writer, waitReplicas, waitTimeoutMs } = around
  const { queue, client } = opened
  const { enqueueTimeoutMs, logger } = options
  const where = describeRedisTarget(options.redis)
  const keys = quarantineKeys(queue)
  const checkReplicas = createReplicaCheck({
    wanted: waitReplicas,
    count: async () => countOnlineReplicas(await writer(), keys.index),
    logger,
    where,
  })
  if (logger) watchConnection(queue, client, logger, where)
  if (waitReplicas > 0) checkWhenReady(around, () => void checkReplicas().catch(() => {}))
  const storing = async <T>(write: Promise<T>): Promise<T> => {
    try {
      return await withTimeout(write, enqueueTimeoutMs, 'storing the event in Redis')
    } catch (cause) {
      throw new StoreUnavailableError('event store unavailable, retry later', { cause })
    }
  }
  const quarantine = {
    ttlMs: options.dedupTtlSeconds * 1000,
    keep: options.keepQuarantined,
    maxBytes: options.quarantineMaxBytes,
    waitReplicas,
    waitTimeoutMs,
  }
  return {
    async accept(event, json) {
      // A fresh job id per request: when BullMQ deduplicates, it hands back the earlier delivery's marker.
      const jobId = randomUUID()
      // The active span's context (the receiver's enqueue span): the worker's span continues its trace.
      const trace = injectTraceContext()
      return (await storing(around.add(event, json, jobId, trace))) === jobId ? 'accepted' : 'duplicate'
    },
    async quarantine(entry: QuarantineEntry, json: string): Promise<QuarantineOutcome> {
      const event = { ...entry, id: randomUUID(), json, receivedAt: new Date().toISOString() }
      return storing(writer().then((redis) => storeQuarantined(redis, keys, event, quarantine)))
    },
    async ready() {
      await withTimeout(
        client().then((redis) => redis.ping()),
        enqueueTimeoutMs,
        'Redis PING',
      )
      if (waitReplicas > 0) await withTimeout(checkReplicas(), enqueueTimeoutMs, 'counting Redis replicas')
    },
    async counts() {
      return withTimeout(
        queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
        enqueueTimeoutMs,
        'counting jobs',
      )
    },
    oldestWaitingAt: () => oldestWaitingAt(queue, enqueueTimeoutMs),
    close: () => closeStore(around),
  }
}

/** Runs `check` at start, and after every reconnection (a failover may leave the new primary alone). */
function checkWhenReady({ ownConnection, opened }: StoreAround, check: () => void): void {
  const onReady = (redis: RedisConnection) => {
    redis.on('ready', check)
    if (redis.status === 'ready') check()
  }
  if (ownConnection) onReady(ownConnection)
  else void opened.client().then(onReady, () => {})
}

/**
 * One deadline for all of it: a frozen Redis (connections open, nothing answered) answers neither QUIT nor the
 * socket's end, and the process must still exit within its drain time. The HTTP drain has already ended every
 * enqueue by now.
 */
async function closeStore({ options, opened: { queue, ownedConnection }, ownConnection }: StoreAround) {
  const deadline = Date.now() + options.enqueueTimeoutMs
  const left = () => Math.max(deadline - Date.now(), 50)
  // BullMQ 5 emits an unhandled 'error' (a crash) when a queue is closed while its connection is still being set
  // up, whatever listeners are attached: let the set-up settle first. If Redis cannot be reached in time there
  // is nothing to flush, and the process is on its way out.
  const settled = await withTimeout(
    queue.waitUntilReady().then(
      () => true,
      () => true,
    ),
    left(),
    'connecting to Redis',
  ).catch(() => false)
  if (settled) await withTimeout(queue.close(), left(), 'closing the queue').catch(() => {})
  // If Redis was away or frozen, QUIT failed and ioredis would keep reconnecting: stop it for good.
  await withTimeout(queue.disconnect(), left(), 'disconnecting').catch(() => {})
  ownConnection?.disconnect()
  ownedConnection?.disconnect()
}

/** Logs when Redis goes away and comes back (503s in between), and checks its eviction policy once connected. */
function watchConnection(
  queue: Queue,
  client: () => Promise<RedisConnection>,
  logger: Logger,
  where: string,
): void {
  let connected = false
  queue.on('error', (error) => {
    if (connected) logger.warn({ err: error, redis: where }, 'lost Redis: answering 503 until it is back')
    connected = false
  })
  void client().then(
    (redis) => {
      redis.on('ready', () => {
        if (!connected) logger.info({ redis: where }, 'connected to Redis')
        connected = true
      })
      connected = redis.status === 'ready'
      if (connected) logger.info({ redis: where }, 'connected to Redis')
      return checkEvictionPolicy(redis, logger)
    },
    () => {}, // the queue closed before it ever connected: nothing to check
  )
}
