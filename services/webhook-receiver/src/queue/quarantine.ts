import type { Queue } from 'bullmq'
import { injectTraceContext } from '@pf/service-kit'
import type { QuarantineEntry, QuarantineReason } from './event-store'
import { addJobInTransaction } from './add-job-in-transaction'
import { withTraceData } from './job-trace-context'
import type { RedisConnection } from './create-redis-connection'
import { MARKER_OF_QUARANTINE } from './queue-names'
import { unconfirmedWrite } from './unconfirmed-write'

/** A quarantined event as stored: the verified text as it came, and why it was kept from the handlers. */
export interface QuarantinedEvent extends QuarantineEntry {
  id: string
  /** When the receiver got it, ISO 8601. */
  receivedAt: string
  /** The verified body, as it came. */
  json: string
}

/**
 * Where a queue's quarantine lives, beside the queue's own keys (the same hash slot): `quarantine`, a sorted set
 * of ids in order of arrival (`quarantine:seq` counts them); `quarantine:<id>`, one hash per event. Its dedup
 * markers are the queue's (`de:<webhookId>`), so a webhookId is known once, whichever way its event went.
 */
export function quarantineKeys(queue: Pick<Queue, 'keys'>) {
  const base = queue.keys[''] as string
  return {
    index: `${base}quarantine`,
    sequence: `${base}quarantine:seq`,
    entryPrefix: `${base}quarantine:`,
    entry: (id: string) => `${base}quarantine:${id}`,
    marker: (webhookId: string) => `${base}de:${webhookId}`,
  }
}

const QUARANTINE_COMMAND = 'pfQuarantine'

// KEYS: the event's dedup marker, the index, the entry, the sequence. ARGV: the id, the marker's TTL in ms, how
// many entries to keep, the entries' key prefix, then the entry's fields and values. Marks and stores at once, as
// BullMQ's add does for a job; a known webhookId stores nothing and answers the marker it found. The oldest
// entries past `keep` go (theirs only: the dead letters are BullMQ's failed set, trimmed by its own count).
const QUARANTINE = `
local marker = "${MARKER_OF_QUARANTINE}" .. ARGV[1]
if not redis.call("SET", KEYS[1], marker, "PX", ARGV[2], "NX") then
  return redis.call("GET", KEYS[1])
end
redis.call("HSET", KEYS[3], unpack(ARGV, 5))
redis.call("ZADD", KEYS[2], redis.call("INCR", KEYS[4]), ARGV[1])
local excess = redis.call("ZCARD", KEYS[2]) - tonumber(ARGV[3])
if excess > 0 then
  local oldest = redis.call("ZPOPMIN", KEYS[2], excess)
  for i = 1, #oldest, 2 do redis.call("DEL", ARGV[4] .. oldest[i]) end
end
return marker`

const RELEASE_COMMAND = 'pfReleaseQuarantined'
// KEYS: the index, the entry; ARGV: the id.
const RELEASE = `
redis.call("ZREM", KEYS[1], ARGV[1])
return redis.call("DEL", KEYS[2])`

type Pipeline = Record<string, (...args: unknown[]) => unknown> & {
  exec(): Promise<[Error | null, unknown][] | null>
}

export interface StoreQuarantinedOptions {
  /** How long its webhookId stays known (the dedup window), in ms. */
  ttlMs: number
  /** Entries kept: the newest. */
  keep: number
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
  { ttlMs, keep, waitReplicas, waitTimeoutMs }: StoreQuarantinedOptions,
): Promise<'quarantined' | 'duplicate'> {
  if (!(QUARANTINE_COMMAND in connection))
    connection.defineCommand(QUARANTINE_COMMAND, { numberOfKeys: 4, lua: QUARANTINE })
  const fields = {
    webhookId: event.webhookId,
    event: event.event ?? '',
    reason: event.reason,
    detail: event.detail,
    receivedAt: event.receivedAt,
    json: event.json,
  }
  const pipeline = connection.pipeline() as unknown as Pipeline
  pipeline[QUARANTINE_COMMAND]!(
    keys.marker(event.webhookId),
    keys.index,
    keys.entry(event.id),
    keys.sequence,
    event.id,
    ttlMs,
    keep,
    keys.entryPrefix,
    ...Object.entries(fields).flat(),
  )
  if (waitReplicas > 0) pipeline.wait!(waitReplicas, waitTimeoutMs)
  const [stored, waited] = (await pipeline.exec()) ?? []
  const error = stored?.[0] ?? waited?.[0] ?? unconfirmedWrite(waited?.[1], waitReplicas)
  if (error) throw error
  return stored?.[1] === `${MARKER_OF_QUARANTINE}${event.id}` ? 'quarantined' : 'duplicate'
}

const PAGE = 500

/** Every quarantined event of the queue, newest first. */
export async function listQuarantined(queue: Queue): Promise<QuarantinedEvent[]> {
  const client = await queue.client
  const keys = quarantineKeys(queue)
  const events: QuarantinedEvent[] = []
  for (let start = 0; ; start += PAGE) {
    const ids = await client.zrevrange(keys.index, start, start + PAGE - 1)
    const entries = await Promise.all(ids.map((id) => client.hgetall(keys.entry(id))))
    for (const [i, fields] of entries.entries()) {
      const id = ids[i] as string
      // Trimmed between the two reads: gone, as it would be a moment later.
      if (!fields.webhookId) continue
      events.push({
        id,
        webhookId: fields.webhookId,
        event: fields.event || undefined,
        reason: fields.reason as QuarantineReason,
        detail: fields.detail ?? '',
        receivedAt: fields.receivedAt ?? '',
        json: fields.json ?? '',
      })
    }
    if (ids.length < PAGE) return events
  }
}

/**
 * Hands a quarantined event to the worker: a job of its kind with the quarantine's id as job id (a second
 * release of the same event is BullMQ's duplicate, not a second job), added in one MULTI with the entry's
 * removal. No dedup option: the event's marker is already there, and stays. The job carries the active trace
 * context (the replay's span).
 */
export async function releaseQuarantined(queue: Queue, event: QuarantinedEvent, data: object): Promise<void> {
  const client = await queue.client
  if (!(RELEASE_COMMAND in client)) client.defineCommand(RELEASE_COMMAND, { numberOfKeys: 2, lua: RELEASE })
  const keys = quarantineKeys(queue)
  const traced = withTraceData(data, injectTraceContext())
  await addJobInTransaction(queue, event.event ?? '', traced, { jobId: event.id }, (multi) =>
    multi.runCommand(RELEASE_COMMAND, [keys.index, keys.entry(event.id), event.id]),
  )
}
