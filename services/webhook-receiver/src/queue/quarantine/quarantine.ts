import type { Queue } from 'bullmq'
import { injectTraceContext } from '@pf/service-kit'
import type { QuarantineEntry, QuarantineReason } from '../event-store'
import { addJobInTransaction } from '../enqueue/add-job-in-transaction'
import { markReplayLate } from '../ordering/mark-replay-late'
import { sessionOf } from '../ordering/session-of'
import { withTraceData } from '../job-trace-context'
import type { RedisConnection } from '../redis/create-redis-connection'
import { MARKER_OF_QUARANTINE } from '../queue-names'
import { unconfirmedWrite } from '../enqueue/unconfirmed-write'
import { bullmqQueueOf, type WebhookQueue } from '../webhook-queue'

/** A quarantined event as stored: the verified text as it came, and why it was kept from the handlers. */
export interface QuarantinedEvent extends QuarantineEntry {
  id: string
  /** When the receiver got it, ISO 8601. */
  receivedAt: string
  /** The verified body, as it came. */
  json: string
}

/** A quarantined event without its body: what a listing shows, whatever the bodies weigh. */
export type QuarantineSummary = Omit<QuarantinedEvent, 'json'>

/**
 * Where a queue's quarantine lives, beside the queue's own keys (the same hash slot): `quarantine`, a sorted set
 * of ids in order of arrival (`quarantine:seq` counts them); `quarantine:<id>`, one hash per event, with its
 * size (`bytes`); `quarantine:bytes`, the sizes' total. Its dedup markers are the queue's (`de:<webhookId>`), so
 * a webhookId is known once, whichever way its event went.
 */
export function quarantineKeys(queue: Pick<Queue, 'keys'>) {
  const base = queue.keys[''] as string
  return {
    index: `${base}quarantine`,
    sequence: `${base}quarantine:seq`,
    bytes: `${base}quarantine:bytes`,
    entryPrefix: `${base}quarantine:`,
    entry: (id: string) => `${base}quarantine:${id}`,
    marker: (webhookId: string) => `${base}de:${webhookId}`,
  }
}

const QUARANTINE_COMMAND = 'pfQuarantine'

// KEYS: the event's dedup marker, the index, the entry, the sequence, the bytes' total. ARGV: the id, the
// marker's TTL in ms, how many entries to keep, the entries' key prefix, how many bytes to keep, then the entry's
// fields and values. Marks and stores at once, as BullMQ's add does for a job; a known webhookId stores nothing
// and answers the marker it found. An entry's size is the bytes of its values (the body, mostly). The oldest
// entries go while more than `keep` or more than the bytes allowed are held, the newest always stays (an event
// acknowledged is never dropped at once); theirs only: the dead letters are BullMQ's failed set, trimmed by its
// own count. Entries stored before sizes were kept count 0 in the total and free 0 when they go.
const QUARANTINE = `
local marker = "${MARKER_OF_QUARANTINE}" .. ARGV[1]
if not redis.call("SET", KEYS[1], marker, "PX", ARGV[2], "NX") then
  return redis.call("GET", KEYS[1])
end
local size = 0
for i = 7, #ARGV, 2 do size = size + #ARGV[i] end
redis.call("HSET", KEYS[3], "bytes", size, unpack(ARGV, 6))
redis.call("ZADD", KEYS[2], redis.call("INCR", KEYS[4]), ARGV[1])
local total = redis.call("INCRBY", KEYS[5], size)
local keep, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[5])
local count = redis.call("ZCARD", KEYS[2])
while count > 1 and (count > keep or total > maxBytes) do
  local oldest = redis.call("ZPOPMIN", KEYS[2])
  local entry = ARGV[4] .. oldest[1]
  local freed = tonumber(redis.call("HGET", entry, "bytes")) or 0
  redis.call("DEL", entry)
  total = redis.call("DECRBY", KEYS[5], freed)
  count = count - 1
end
if total < 0 then redis.call("SET", KEYS[5], 0) end
return marker`

const RELEASE_COMMAND = 'pfReleaseQuarantined'
// KEYS: the index, the entry, the bytes' total; ARGV: the id.
const RELEASE = `
local freed = tonumber(redis.call("HGET", KEYS[2], "bytes")) or 0
redis.call("ZREM", KEYS[1], ARGV[1])
local removed = redis.call("DEL", KEYS[2])
if removed == 1 and freed > 0 then redis.call("DECRBY", KEYS[3], freed) end
return removed`

type Pipeline = Record<string, (...args: unknown[]) => unknown> & {
  exec(): Promise<[Error | null, unknown][] | null>
}

export interface StoreQuarantinedOptions {
  /** How long its webhookId stays known (the dedup window), in ms. */
  ttlMs: number
  /** Entries kept: the newest. */
  keep: number
  /** Bytes kept, all entries together (the newest entry stays whatever its size). */
  maxBytes: number
  /** Replicas that must confirm the write (`WAIT`), within `waitTimeoutMs`. */
  waitReplicas: number
  waitTimeoutMs: number
}

/**
 * Stores a quarantined event with its dedup marker in one script (a known webhookId: nothing stored), then
 * waits for the replicas like a job's enqueue; rejects when they do not confirm it.
 */
export async function storeQuarantined(
  connection: RedisConnection,
  keys: ReturnType<typeof quarantineKeys>,
  event: QuarantinedEvent,
  { ttlMs, keep, maxBytes, waitReplicas, waitTimeoutMs }: StoreQuarantinedOptions,
): Promise<'quarantined' | 'duplicate'> {
  if (!(QUARANTINE_COMMAND in connection))
    connection.defineCommand(QUARANTINE_COMMAND, { numberOfKeys: 5, lua: QUARANTINE })
  // A listing reads every entry's fields but the body: the two that come from the body are cut to a bound.
  const fields = {
    webhookId: event.webhookId,
    event: clip(event.event ?? '', MAX_EVENT_CHARS),
    reason: event.reason,
    detail: clip(event.detail, MAX_DETAIL_CHARS),
    receivedAt: event.receivedAt,
    json: event.json,
  }
  const pipeline = connection.pipeline() as unknown as Pipeline
  pipeline[QUARANTINE_COMMAND]!(
    keys.marker(event.webhookId),
    keys.index,
    keys.entry(event.id),
    keys.sequence,
    keys.bytes,
    event.id,
    ttlMs,
    keep,
    keys.entryPrefix,
    maxBytes,
    ...Object.entries(fields).flat(),
  )
  if (waitReplicas > 0) pipeline.wait!(waitReplicas, waitTimeoutMs)
  const [stored, waited] = (await pipeline.exec()) ?? []
  const error = stored?.[0] ?? waited?.[0] ?? unconfirmedWrite(waited?.[1], waitReplicas)
  if (error) throw error
  return stored?.[1] === `${MARKER_OF_QUARANTINE}${event.id}` ? 'quarantined' : 'duplicate'
}

/** Longest `event` kept with an entry: far beyond any kind's name (an unknown kind is still named). */
const MAX_EVENT_CHARS = 200
/** Longest `detail` kept: the first validation errors, or the timestamp against the window. */
const MAX_DETAIL_CHARS = 2000
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const PAGE = 500
const SUMMARY_FIELDS = ['webhookId', 'event', 'reason', 'detail', 'receivedAt'] as const

/**
 * Every quarantined event of the queue without its body, newest first: a page of ids at a time, each entry's
 * fields but `json` (bounded: `MAX_EVENT_CHARS`, `MAX_DETAIL_CHARS`), so that a listing holds no body however
 * many there are and however big. `readQuarantined` reads one body.
 */
export async function listQuarantined(handle: WebhookQueue): Promise<QuarantineSummary[]> {
  const queue = bullmqQueueOf(handle)
  const client = await queue.client
  const keys = quarantineKeys(queue)
  const events: QuarantineSummary[] = []
  for (let start = 0; ; start += PAGE) {
    const ids = await client.zrevrange(keys.index, start, start + PAGE - 1)
    const entries = await Promise.all(ids.map((id) => client.hmget(keys.entry(id), ...SUMMARY_FIELDS)))
    for (const [i, [webhookId, event, reason, detail, receivedAt]] of entries.entries()) {
      // Trimmed between the two reads: gone, as it would be a moment later.
      if (!webhookId) continue
      events.push({
        id: ids[i] as string,
        webhookId,
        event: event || undefined,
        reason: reason as QuarantineReason,
        detail: detail ?? '',
        receivedAt: receivedAt ?? '',
      })
    }
    if (ids.length < PAGE) return events
  }
}

/** One quarantined event with its body, as stored; undefined when it is gone (trimmed, or released). */
export async function readQuarantined(
  handle: WebhookQueue,
  id: string,
): Promise<QuarantinedEvent | undefined> {
  const queue = bullmqQueueOf(handle)
  const client = await queue.client
  const [webhookId, event, reason, detail, receivedAt, json] = await client.hmget(
    quarantineKeys(queue).entry(id),
    ...SUMMARY_FIELDS,
    'json',
  )
  if (!webhookId) return undefined
  return {
    id,
    webhookId,
    event: event || undefined,
    reason: reason as QuarantineReason,
    detail: detail ?? '',
    receivedAt: receivedAt ?? '',
    json: json ?? '',
  }
}

/**
 * Hands a quarantined event to the worker: a job of its kind with the quarantine's id as job id (a second
 * release of the same event is BullMQ's duplicate, not a second job), added in one MULTI with the entry's
 * removal. No dedup option: the event's marker is already there, and stays. The job carries the active trace
 * context (the replay's span). With `markLate` (`WEBHOOK_ORDERING=session`), the job is also marked a replay, so
 * the worker hands it on as late.
 */
export async function releaseQuarantined(
  handle: WebhookQueue,
  event: QuarantineSummary,
  data: object,
  markLate = false,
): Promise<void> {
  const queue = bullmqQueueOf(handle)
  const client = await queue.client
  if (!(RELEASE_COMMAND in client)) client.defineCommand(RELEASE_COMMAND, { numberOfKeys: 3, lua: RELEASE })
  const keys = quarantineKeys(queue)
  const traced = withTraceData(data, injectTraceContext())
  const place = markLate ? sessionOf(data, event.id) : undefined
  const markReplay = place && markReplayLate(queue, client, place)
  await addJobInTransaction(queue, event.event ?? '', traced, { jobId: event.id }, (multi) => {
    multi.runCommand(RELEASE_COMMAND, [keys.index, keys.entry(event.id), keys.bytes, event.id])
    markReplay?.(multi)
  })
}
