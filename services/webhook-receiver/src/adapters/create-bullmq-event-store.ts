import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import type { WebhookEnvelope } from '@pf/schemas'
import { withTimeout, type Logger } from '@pf/service-kit'
import type { ReceiverConfig } from '../config'
import { describeRedisTarget } from '../redis-target'
import { StoreUnavailableError } from '../errors'
import type { AcceptOutcome, EventStore, QuarantineEntry, QuarantineOutcome } from '../core/event-store'
import { addJobKeepingMarker } from './add-job-keeping-marker'
import { checkEvictionPolicy } from './check-eviction-policy'
import { countOnlineReplicas } from './count-online-replicas'
import { defaultJobOptions } from './default-job-options'
import { BULLMQ_VERSION_PINNED, createJobAdder, type JobAdder } from './create-job-adder'
import { bullmqConnection, createRedisConnection, type RedisConnection } from './create-redis-connection'
import { createReplicaCheck } from './create-replica-check'
import { oldestWaitingAt } from './oldest-waiting-at'
import { quarantineKeys, storeQuarantined } from './quarantine'
import { WEBHOOK_QUEUE_NAME } from './queue-names'
import { unconfirmedWrite } from './unconfirmed-write'
import { whenConnected } from './when-connected'

export type BullmqEventStoreOptions = Pick<
  ReceiverConfig,
  | 'redis'
  | 'dedupTtlSeconds'
  | 'enqueueTimeoutMs'
  | 'jobAttempts'
  | 'jobBackoffMs'
  | 'keepCompleted'
  | 'keepFailed'
  | 'keepQuarantined'
> & {
  prefix: string
  /** Connection losses and recoveries are logged here; none when absent (tests). */
  logger?: Logger
  /** Store through `Queue.add` one job at a time, as when BullMQ is not the pinned version (tests). */
  viaQueueAdd?: boolean
}

export interface BullmqEventStore {
  store: EventStore
  /** The BullMQ queue itself, for what only BullMQ can do (the bull-board dashboard, dead letters, tests). */
  queue: Queue
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const installedBullmq = (require('bullmq/package.json') as { version: string }).version

/**
 * Stores each event as a BullMQ job, deduplicated by `webhookId`, or in the quarantine (`quarantine.ts`), under
 * the same dedup markers.
 *
 * Dedup uses BullMQ's `deduplication` option in throttle mode (an `id` with a `ttl`): the marker key is set
 * inside the same Lua script (or MULTI) that creates the job, so accepting and marking are one atomic step; a
 * crash can neither store an event without its marker nor mark one without storing it. With a `ttl` the marker
 * survives the job's completion and trimming, and since it holds `job:<id>` rather than the job's id, also the
 * job's removal (`job.remove()`, `Queue.clean`, the dashboard), which deletes only a marker holding the removed
 * job's id: a redelivery stays a duplicate for the whole window whatever became of the job.
 *
 * Jobs are added by `createJobAdder` (BullMQ's addStandardJob for these options, all of an event-loop turn in
 * one script call) on a connection of their own, with `WAIT` for `redis.waitReplicas` replicas before the
 * event counts as stored. With another BullMQ than the pinned one, by `addJobKeepingMarker` (Queue.add's script
 * in a MULTI), then `WAIT` on its connection (not in a Cluster, where a command without a key goes to any node:
 * there, the write is the primary's word). Quarantined events are written on the same connection, and waited
 * for alike. `ready()` also checks that the replicas waited for are online (`createReplicaCheck`).
 */
export function createBullmqEventStore({
  redis,
  prefix,
  dedupTtlSeconds,
  enqueueTimeoutMs,
  jobAttempts,
  jobBackoffMs,
  keepCompleted,
  keepFailed,
  keepQuarantined,
  logger,
  viaQueueAdd = false,
}: BullmqEventStoreOptions): BullmqEventStore {
  const queueConnection = bullmqConnection(redis, 'producer')
  const queue = new Queue(WEBHOOK_QUEUE_NAME, {
    connection: queueConnection.connection,
    prefix,
    defaultJobOptions: defaultJobOptions({ jobAttempts, jobBackoffMs, keepCompleted, keepFailed }),
  })
  // A Queue emits 'error' on connection loss; without a listener Node would crash the process.
  queue.on('error', () => {})
  const deduplicationTtlMs = dedupTtlSeconds * 1000
  // BullMQ's client is a plain ioredis client; its declared type only lists the commands BullMQ itself uses.
  const client = () => queue.client as unknown as Promise<RedisConnection>

  const batched = !viaQueueAdd && installedBullmq === BULLMQ_VERSION_PINNED
  if (!batched && !viaQueueAdd)
    logger?.warn(
      { installed: installedBullmq, pinned: BULLMQ_VERSION_PINNED },
      'BullMQ is not the version the batched enqueue was checked against: adding jobs one by one with Queue.add',
    )
  // Replicas each write waits for: none in a Cluster without the batched enqueue (see above).
  const waitReplicas = batched || redis.kind !== 'cluster' ? redis.waitReplicas : 0
  // Within the enqueue time-out, so that a missing replica is a 503 of ours, not a time-out.
  const waitTimeoutMs = Math.max(1, Math.floor(enqueueTimeoutMs * 0.8))
  const waitForReplicas = async () => {
    if (waitReplicas === 0) return
    const error = unconfirmedWrite(await (await client()).wait(waitReplicas, waitTimeoutMs), waitReplicas)
    if (error) throw error
  }
  const connection: RedisConnection | undefined = batched
    ? createRedisConnection(redis, 'producer')
    : undefined
  connection?.on('error', () => {}) // reported by the queue's watcher; every failed enqueue answers 503
  const adder: JobAdder | undefined =
    connection && createJobAdder({ connection, queue, deduplicationTtlMs, waitReplicas, waitTimeoutMs })
  // Where events are written, quarantined ones included, and where WAIT and the replica check run.
  const writer = async () => {
    if (!connection) return client()
    await whenConnected(connection, waitTimeoutMs)
    return connection
  }
  const where = describeRedisTarget(redis)
  const keys = quarantineKeys(queue)
  const checkReplicas = createReplicaCheck({
    wanted: waitReplicas,
    count: async () => countOnlineReplicas(await writer(), keys.index),
    logger,
    where,
  })
  if (logger) watchConnection(queue, client, logger, where)
  // At start, and after every reconnection (a failover may leave the new primary alone): said once, in the log.
  const checkWhenReady = (redis: RedisConnection) => {
    const check = () => void checkReplicas().catch(() => {})
    redis.on('ready', check)
    if (redis.status === 'ready') check()
  }
  if (waitReplicas > 0) {
    if (connection) checkWhenReady(connection)
    else void client().then(checkWhenReady, () => {})
  }

  /** Runs a write within the enqueue time-out; any failure is the 503 that makes the platform retry. */
  const storing = async <T>(write: Promise<T>): Promise<T> => {
    try {
      return await withTimeout(write, enqueueTimeoutMs, 'storing the event in Redis')
    } catch (cause) {
      throw new StoreUnavailableError('event store unavailable, retry later', { cause })
    }
  }

  const store: EventStore = {
    async accept(event: WebhookEnvelope, json: string): Promise<AcceptOutcome> {
      // A fresh job id per request: when BullMQ deduplicates, it hands back the earlier delivery's marker.
      const jobId = randomUUID()
      const stored = await storing(
        adder
          ? adder.add(event.event, json, jobId, event.webhookId)
          : addJobKeepingMarker(queue, event.event, event, {
              jobId,
              deduplication: { id: event.webhookId, ttl: deduplicationTtlMs },
            }).then(async (held) => {
              await waitForReplicas()
              return held
            }),
      )
      return stored === jobId ? 'accepted' : 'duplicate'
    },
    async quarantine(entry: QuarantineEntry, json: string): Promise<QuarantineOutcome> {
      const event = { ...entry, id: randomUUID(), json, receivedAt: new Date().toISOString() }
      const options = { ttlMs: deduplicationTtlMs, keep: keepQuarantined, waitReplicas, waitTimeoutMs }
      return storing(writer().then((redis) => storeQuarantined(redis, keys, event, options)))
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
    async close() {
      // One deadline for all of it: a frozen Redis (connections open, nothing answered) answers neither QUIT nor
      // the socket's end, and the process must still exit within its drain time. The HTTP drain has already
      // ended every enqueue by now.
      const deadline = Date.now() + enqueueTimeoutMs
      const left = () => Math.max(deadline - Date.now(), 50)
      // BullMQ 5 emits an unhandled 'error' (a crash) when a queue is closed while its connection is still
      // being set up, whatever listeners are attached: let the set-up settle first. If Redis cannot be reached
      // in time there is nothing to flush, and the process is on its way out.
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
      connection?.disconnect()
      queueConnection.owned?.disconnect()
    },
  }
  return { store, queue }
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
