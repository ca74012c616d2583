import { Job, type Queue } from 'bullmq'
import { Cluster } from 'ioredis'
import { Packr } from 'msgpackr'
import type { RedisConnection } from './create-redis-connection'

/**
 * The BullMQ version whose `Scripts.addJob` arguments `createJobAdder` reproduces. The Lua itself is read
 * from the installed BullMQ; a parity test compares the Redis state this writes with what `Queue.add` writes.
 * With any other version installed, the event store falls back to `Queue.add`.
 */
export const BULLMQ_VERSION_PINNED = '5.81.5'

// The same packer settings as BullMQ's `Scripts` (classes/scripts.js).
const packer = new Packr({ useRecords: false, encodeUndefinedAsNil: true })

/** BullMQ's addStandardJob script (includes resolved), run once per job of the batch given in ARGV. */
function batchedAddStandardJob(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { addStandardJob } = require('bullmq/dist/cjs/scripts/addStandardJob-9') as {
    addStandardJob: { content: string }
  }
  return [
    // Each job's ARGV[1..3] (packed arguments, data, packed options) shadow the script's global ARGV.
    'local function addStandardJob(ARGV)',
    addStandardJob.content,
    'end',
    'local added = {}',
    'for i = 1, #ARGV, 3 do',
    '  added[#added + 1] = addStandardJob({ARGV[i], ARGV[i + 1], ARGV[i + 2]})',
    'end',
    'return added',
  ].join('\n')
}

const COMMAND = 'pfAddStandardJobs'

export interface JobAdderOptions {
  connection: RedisConnection
  /** The queue whose keys, prefix and default job options the jobs get. */
  queue: Queue
  /** Time-to-live of the deduplication marker (BullMQ's `deduplication.ttl`). */
  deduplicationTtlMs: number
  /** Replicas that must hold a batch before it counts as stored (`WAIT`); 0: the primary's word is enough. */
  waitReplicas: number
  /** Longest `WAIT` for them. */
  waitTimeoutMs: number
  /** Most jobs in one script call. */
  maxBatch?: number
}

export interface JobAdder {
  /**
   * Adds a standard job exactly as `queue.add(name, data, { jobId, deduplication: { id, ttl } })` would, `data`
   * being its JSON text; resolves with the id of the job that holds it: `jobId`, or an earlier job's when the
   * deduplication id was already taken. Jobs added in one event-loop turn go to Redis in one script call.
   */
  add(name: string, data: string, jobId: string, deduplicationId: string): Promise<string>
}

interface Pending {
  args: Buffer
  data: string
  opts: Buffer
  resolve(jobId: string): void
  reject(error: unknown): void
}

/**
 * `Queue.add` without its per-job client work (a Job object, the options merged and msgpacked one by one, one
 * script call each): the options are prepared once from BullMQ's own `Job`, and every job of an event-loop turn
 * runs BullMQ's own addStandardJob script inside one EVALSHA, followed on the same connection by `WAIT` when
 * replicas must confirm. Same Lua, same arguments, same keys: a worker, ours or a plain BullMQ one, sees what
 * `Queue.add` would have stored.
 */
export function createJobAdder({
  connection,
  queue,
  deduplicationTtlMs,
  waitReplicas,
  waitTimeoutMs,
  maxBatch = 256,
}: JobAdderOptions): JobAdder {
  if (!(COMMAND in connection))
    connection.defineCommand(COMMAND, { numberOfKeys: 9, lua: batchedAddStandardJob() })
  const keys = queue.keys
  const scriptKeys = [
    keys.wait,
    keys.paused,
    keys.meta,
    keys.id,
    keys.completed,
    keys.delayed,
    keys.active,
    keys.events,
    keys.marker,
  ]
  // The options as Queue.add stores them: defaults merged with ours by BullMQ's own Job, then encoded.
  const template = Job.optsAsJSON(
    new Job(
      queue,
      'template',
      {},
      {
        ...queue.defaultJobOptions,
        jobId: 'template',
        deduplication: { id: 'template', ttl: deduplicationTtlMs },
      },
    ).opts,
  )

  // First connection: worth waiting for (up to the WAIT time-out). Once it was up, a lost connection fails
  // at once (no offline queue): the platform gets its 503 fast and retries.
  const connected = () =>
    new Promise<void>((resolve, reject) => {
      if (connection.status === 'ready') return resolve()
      if (
        connection.status !== 'connecting' &&
        connection.status !== 'connect' &&
        connection.status !== 'wait'
      )
        return reject(new Error(`Redis connection is ${connection.status}`))
      const done = (error?: Error) => {
        clearTimeout(timer)
        connection.off('ready', onReady)
        if (error) reject(error)
        else resolve()
      }
      const onReady = () => done()
      const timer = setTimeout(() => done(new Error('Redis did not connect in time')), waitTimeoutMs)
      connection.on('ready', onReady)
    })

  let pending: Pending[] = []
  const flush = () => {
    const batch = pending
    if (batch.length === 0) return
    pending = []
    connected().then(
      () => send(batch),
      (error: unknown) => {
        for (const job of batch) job.reject(error)
      },
    )
  }
  const send = (batch: Pending[]) => {
    const argv: (Buffer | string)[] = []
    for (const job of batch) argv.push(job.args, job.data, job.opts)
    const pipeline = connection.pipeline() as unknown as Record<string, (...args: unknown[]) => unknown> & {
      exec(): Promise<[Error | null, unknown][] | null>
    }
    pipeline[COMMAND]!(...scriptKeys, ...argv)
    if (waitReplicas > 0) pipeline.wait!(waitReplicas, waitTimeoutMs)
    pipeline.exec().then(
      (results) => {
        const [added, waited] = results ?? []
        const error =
          added?.[0] ??
          waited?.[0] ??
          (waitReplicas > 0 && (waited?.[1] as number) < waitReplicas
            ? new Error(`only ${waited?.[1] as number} of ${waitReplicas} replicas confirmed the write`)
            : null)
        if (error) fail(batch, error)
        else batch.forEach((job, i) => job.resolve(String((added?.[1] as unknown[])[i])))
      },
      (error: unknown) => fail(batch, error),
    )
  }

  const fail = (batch: Pending[], error: unknown) => {
    for (const job of batch) job.reject(error)
    // A Cluster client follows a redirection for a lone command, not for a pipeline whose WAIT succeeded on the
    // node that redirected: ask the cluster where the slots are now, so the next batch goes to the new master.
    if (connection instanceof Cluster && /^(MOVED|ASK|CLUSTERDOWN)\b/.test(String((error as Error)?.message)))
      connection.refreshSlotsCache()
  }

  return {
    add(name, data, jobId, deduplicationId) {
      return new Promise<string>((resolve, reject) => {
        // Scripts.addJob's arguments: prefix, id, name, timestamp, parent key, parent dependencies key,
        // parent, repeat job key, deduplication key.
        const args = packer.pack([
          keys[''],
          jobId,
          name,
          Date.now(),
          null,
          null,
          undefined,
          undefined,
          `${keys.de}:${deduplicationId}`,
        ])
        const opts = packer.pack({
          ...template,
          jobId,
          de: { id: deduplicationId, ttl: deduplicationTtlMs },
        })
        if (pending.push({ args, data, opts, resolve, reject }) === 1) setImmediate(flush)
        else if (pending.length >= maxBatch) flush()
      })
    },
  }
}
