import { createHash } from 'node:crypto'
import { Job, type Queue } from 'bullmq'
import { Cluster } from 'ioredis'
import { Packr } from 'msgpackr'
import type { RedisConnection } from '../redis/create-redis-connection'
import { registerArgs, REGISTER_IN_ADD_SCRIPT } from '../ordering/register-on-enqueue'
import type { EventPlace } from '../ordering/session-of'
import { MARKER_OF_JOB } from '../queue-names'
import { unconfirmedWrite } from './unconfirmed-write'
import { whenConnected } from '../redis/when-connected'

/**
 * The BullMQ version whose addStandardJob script `createJobAdder` reproduces; a parity test compares the Redis
 * state it writes with what `Queue.add` writes. With any other version installed, the event store falls back
 * to `Queue.add`.
 */
export const BULLMQ_VERSION_PINNED = '5.81.5'

// The same packer settings as BullMQ's `Scripts` (classes/scripts.js).
const packer = new Packr({ useRecords: false, encodeUndefinedAsNil: true })

/** Stand-ins for the two per-job values of the options, spliced into their JSON text by the script. */
const JOB_ID_SLOT = '__pf_job_id__'
const DEDUPLICATION_ID_SLOT = '__pf_deduplication_id__'

/**
 * BullMQ 5.81.5's addStandardJob (commands/addStandardJob-9.lua) for the options this receiver uses, for many
 * jobs at once: a job id given by the caller, deduplication in throttle mode with a ttl, no parent, repeat,
 * delay, priority or LIFO. The same keys end with the same values (options decoded and re-encoded by the same
 * cmsgpack and cjson), without BullMQ's per-job set-up of two dozen Lua functions, which cost most of Redis's
 * time per job. The job's timestamp and the ttl stay the decimal strings they came as: BullMQ makes them Lua
 * numbers, which Redis writes back as the same digits (an integer, by `%.17g` or its shortest form) through a
 * float formatting of ~3 000 instructions each, a tenth of Redis's work per job (callgrind); delay and priority
 * are formatted so once per call. What cannot change while one script runs is done
 * once per call rather than once per job, leaving the same state: the meta hash read (events' max length,
 * paused, concurrency), the id counter raised by the number of jobs, the stored jobs pushed in their order by
 * one LPUSH, the workers' marker set once. The options' JSON differs between jobs only by the job id and the
 * deduplication id: it is encoded once, from the options with `JOB_ID_SLOT` and `DEDUPLICATION_ID_SLOT`, and
 * each job's is that text with its two ids, encoded by cjson too, in their places (the same keys decoded in
 * the same order iterate in the same order). One difference, on purpose and shared with the fallback
 * (`addJobKeepingMarker`): the dedup marker holds `job:<jobId>`, not the job id, so that removing the job
 * leaves it.
 * The options (msgpack, with the two slots) are written into the script's text (`optsLiteral`, a Lua string
 * literal): every argument is then a string, which ioredis writes with one concatenation instead of a buffer
 * assembled piece by piece.
 * KEYS: wait, paused, meta, id, completed, delayed, active, events, marker.
 * ARGV: key prefix, deduplication ttl, then per job: id, name, timestamp, deduplication id, data; with
 * `ordered`, also the session's key part and the event's score, for per-session ordering (`registerArgs`).
 */
const addStandardJobs = (ordered: boolean, optsLiteral: string) => `
local rcall = redis.call
local prefix = ARGV[1]
local ttl = ARGV[2]
local eventsKey = KEYS[8]
local step = ${ordered ? 7 : 5}
local added = {}
local stored = {}
rcall("INCRBY", KEYS[4], (#ARGV - 2) / step)
-- getOrSetMaxEvents
local maxEvents = rcall("HGET", KEYS[3], "opts.maxLenEvents")
if not maxEvents then
  maxEvents = 10000
  rcall("HSET", KEYS[3], "opts.maxLenEvents", maxEvents)
end
-- getTargetQueueList
local attributes = rcall("HMGET", KEYS[3], "paused", "concurrency", "max", "duration")
local target, pausedOrMaxed = KEYS[1], false
if attributes[1] then
  target, pausedOrMaxed = KEYS[2], true
elseif attributes[2] then
  pausedOrMaxed = rcall("LLEN", KEYS[7]) >= tonumber(attributes[2])
end
-- The options' JSON around the two ids, in the order cjson writes them.
local opts = cmsgpack.unpack(${optsLiteral})
local optsJson = cjson.encode(opts)
local jobIdSlot = cjson.encode("${JOB_ID_SLOT}")
local dedupSlot = cjson.encode("${DEDUPLICATION_ID_SLOT}")
local atJobId = string.find(optsJson, jobIdSlot, 1, true)
local atDedup = string.find(optsJson, dedupSlot, 1, true)
local first, second, jobIdFirst = atJobId, atDedup, true
local firstSlot, secondSlot = jobIdSlot, dedupSlot
if atDedup < atJobId then
  first, second, jobIdFirst = atDedup, atJobId, false
  firstSlot, secondSlot = dedupSlot, jobIdSlot
end
local head = string.sub(optsJson, 1, first - 1)
local middle = string.sub(optsJson, first + #firstSlot, second - 1)
local tail = string.sub(optsJson, second + #secondSlot)
local delay = string.format("%.17g", opts["delay"] or 0)
local priority = string.format("%.17g", opts["priority"] or 0)
for i = 3, #ARGV, step do
  local jobId = ARGV[i]
  local name = ARGV[i + 1]
  local timestamp = ARGV[i + 2]
  local deduplicationId = ARGV[i + 3]
  local data = ARGV[i + 4]${ordered ? '\n  local sessionKey, score = ARGV[i + 5], ARGV[i + 6]' : ''}
  local jobIdKey = prefix .. jobId
  if rcall("EXISTS", jobIdKey) == 1 then
    -- handleDuplicatedJob, without a parent
    rcall("XADD", eventsKey, "MAXLEN", "~", maxEvents, "*", "event", "duplicated", "jobId", jobId)
    added[#added + 1] = jobId
  else
    -- deduplicateJob: throttle mode, the marker holding "${MARKER_OF_JOB}<jobId>" (see MARKER_OF_JOB)
    local deduplicationKey = prefix .. "de:" .. deduplicationId
    if not rcall("SET", deduplicationKey, "${MARKER_OF_JOB}" .. jobId, "PX", ttl, "NX") then
      local currentDebounceJobId = rcall("GET", deduplicationKey)
      rcall("XADD", eventsKey, "MAXLEN", "~", maxEvents, "*", "event", "debounced", "jobId",
        currentDebounceJobId, "debounceId", deduplicationId)
      rcall("XADD", eventsKey, "MAXLEN", "~", maxEvents, "*", "event", "deduplicated", "jobId",
        currentDebounceJobId, "deduplicationId", deduplicationId, "deduplicatedJobId", jobId)
      added[#added + 1] = currentDebounceJobId
    else
      -- storeJob
      local jobIdJson, dedupJson = cjson.encode(jobId), cjson.encode(deduplicationId)
      if not jobIdFirst then jobIdJson, dedupJson = dedupJson, jobIdJson end
      rcall("HMSET", jobIdKey, "name", name, "data", data, "opts", head .. jobIdJson .. middle .. dedupJson .. tail,
        "timestamp", timestamp, "delay", delay, "priority", priority, "deid", deduplicationId)
      rcall("XADD", eventsKey, "*", "event", "added", "jobId", jobId, "name", name)
      -- addJobInTargetList (FIFO): the LPUSH and the marker follow, once for all
      stored[#stored + 1] = jobId
      rcall("XADD", eventsKey, "MAXLEN", "~", maxEvents, "*", "event", "waiting", "jobId", jobId)
      added[#added + 1] = jobId${ordered ? REGISTER_IN_ADD_SCRIPT : ''}
    end
  end
end
if #stored > 0 then
  rcall("LPUSH", target, unpack(stored))
  if not pausedOrMaxed then rcall("ZADD", KEYS[9], 0, "0") end
end
return added
`

/** Bytes as a Lua string literal, every byte a decimal escape (binary-safe, whatever the bytes). */
const luaStringLiteral = (bytes: Uint8Array) => `"${Array.from(bytes, (byte) => `\\${byte}`).join('')}"`

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
  /** `WEBHOOK_ORDERING=session`: each stored event also joins its session's pending set, in the same script. */
  ordered?: boolean
}

export interface JobAdder {
  /**
   * Adds a standard job as `addJobKeepingMarker` (`queue.add(name, data, { jobId, deduplication: { id, ttl } })`
   * with a marker independent of the job) does, `data` being its JSON text; resolves with `jobId`, or when the
   * deduplication id was already taken, with the marker of the earlier delivery. Jobs added in one event-loop
   * turn, or while the previous call is unanswered, go to Redis in one script call.
   */
  add(name: string, data: string, jobId: string, deduplicationId: string, place?: EventPlace): Promise<string>
}

interface Pending {
  jobId: string
  name: string
  timestamp: number
  deduplicationId: string
  data: string
  place: EventPlace | undefined
  resolve(jobId: string): void
  reject(error: unknown): void
}

/**
 * `Queue.add` without its per-job costs (a Job object, the options merged one by one, one script call each,
 * BullMQ's Lua set-up): the options are prepared once from BullMQ's own `Job`, and every job of an event-loop
 * turn is added by `addStandardJobs` in one EVALSHA, followed on the same connection by `WAIT` when replicas
 * must confirm. A worker, ours or a plain BullMQ one, sees what `Queue.add` would have stored.
 */
export function createJobAdder({
  connection,
  queue,
  deduplicationTtlMs,
  waitReplicas,
  waitTimeoutMs,
  maxBatch = 256,
  ordered = false,
}: JobAdderOptions): JobAdder {
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
  const opts = packer.pack({
    ...jobOptionsTemplate(queue, deduplicationTtlMs),
    jobId: JOB_ID_SLOT,
    de: { id: DEDUPLICATION_ID_SLOT, ttl: deduplicationTtlMs },
  })
  const lua = addStandardJobs(ordered, luaStringLiteral(opts))
  // Named after its text, options included: adders of other options may share a connection (benches, tests).
  const command = `pfAddStandardJobs_${createHash('sha1').update(lua).digest('hex')}`
  if (!(command in connection)) connection.defineCommand(command, { numberOfKeys: 9, lua })

  let pending: Pending[] = []
  // Batches sent and not yet answered, and whether a flush is already due: while one is in flight, the jobs
  // that come meanwhile wait for its answer (or a full batch) and go together, so that under load Redis runs
  // fewer, larger script calls and both sides make fewer system calls; with nothing in flight a job goes at
  // the end of its event-loop turn, as before.
  let inFlight = 0
  let flushDue = false
  const flushSoon = () => {
    if (flushDue) return
    flushDue = true
    setImmediate(flush)
  }
  const flush = () => {
    flushDue = false
    const batch = pending
    if (batch.length === 0) return
    pending = []
    inFlight += 1
    whenConnected(connection, waitTimeoutMs)
      .then(
        () => send(batch),
        (error: unknown) => {
          for (const job of batch) job.reject(error)
        },
      )
      .finally(() => {
        inFlight -= 1
        if (inFlight === 0 && pending.length > 0) flushSoon()
      })
  }
  const send = async (batch: Pending[]) => {
    const argv: (string | number)[] = [keys[''] as string, deduplicationTtlMs]
    for (const job of batch) {
      argv.push(job.jobId, job.name, job.timestamp, job.deduplicationId, job.data)
      if (ordered) argv.push(...registerArgs(job.place))
    }
    const client = connection as unknown as Record<string, (...args: unknown[]) => Promise<unknown>> & {
      pipeline(): Record<string, (...args: unknown[]) => unknown> & {
        exec(): Promise<[Error | null, unknown][] | null>
      }
    }
    try {
      if (waitReplicas === 0) {
        // One command: no pipeline to build (and a Cluster client follows a redirection by itself).
        const added = (await client[command]!(...scriptKeys, ...argv)) as unknown[]
        batch.forEach((job, i) => job.resolve(String(added[i])))
        return
      }
      const pipeline = client.pipeline()
      pipeline[command]!(...scriptKeys, ...argv)
      pipeline.wait!(waitReplicas, waitTimeoutMs)
      const [added, waited] = (await pipeline.exec()) ?? []
      const error = added?.[0] ?? waited?.[0] ?? unconfirmedWrite(waited?.[1], waitReplicas)
      if (error) fail(batch, error)
      else batch.forEach((job, i) => job.resolve(String((added?.[1] as unknown[])[i])))
    } catch (error) {
      fail(batch, error)
    }
  }

  const fail = (batch: Pending[], error: unknown) => {
    for (const job of batch) job.reject(error)
    // A Cluster client follows a redirection for a lone command, not for a pipeline whose WAIT succeeded on the
    // node that redirected: ask the cluster where the slots are now, so the next batch goes to the new master.
    if (connection instanceof Cluster && /^(MOVED|ASK|CLUSTERDOWN)\b/.test(String((error as Error)?.message)))
      connection.refreshSlotsCache()
  }

  return {
    add(name, data, jobId, deduplicationId, place) {
      return new Promise<string>((resolve, reject) => {
        const job = {
          jobId,
          name,
          timestamp: Date.now(),
          deduplicationId,
          data,
          place,
          resolve,
          reject,
        }
        if (pending.push(job) >= maxBatch) flush()
        else if (inFlight === 0) flushSoon()
      })
    },
  }
}

/** The options as Queue.add stores them: defaults merged with ours by BullMQ's own Job, then encoded. */
function jobOptionsTemplate(queue: Queue, deduplicationTtlMs: number) {
  const opts = {
    ...queue.defaultJobOptions,
    jobId: 'template',
    deduplication: { id: 'template', ttl: deduplicationTtlMs },
  }
  return Job.optsAsJSON(new Job(queue, 'template', {}, opts).opts)
}
