import type { IRedisTransaction, Queue } from 'bullmq'
import { addJobInTransaction } from './add-job-in-transaction'
import { MARKER_OF_JOB } from '../queue-names'

const COMMAND = 'pfKeepMarker'

// KEYS[1] the dedup marker; ARGV[1] the job id. Right after BullMQ's add, in the same MULTI: if the add stored the
// job (the marker holds its id), the marker is rewritten to `job:<id>`, keeping its TTL.
const KEEP_MARKER = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("SET", KEYS[1], "${MARKER_OF_JOB}" .. ARGV[1], "KEEPTTL")
end
return 1`

export interface AddJobKeepingMarkerOptions {
  jobId: string
  /** The dedup id (the webhookId) and how long it is remembered, in ms. */
  deduplication: { id: string; ttl: number }
}

/**
 * `queue.add(name, data, { jobId, deduplication })` (the enqueue that works with any BullMQ 5: the fallback of
 * the pinned, batched one) with a dedup marker independent of the job: in the same MULTI, the marker is made to
 * hold `job:<jobId>`, so that BullMQ's removal of the job (which deletes a marker holding that job's id) leaves
 * it. Resolves with `jobId`, or when the webhookId was already known, with the marker of the earlier delivery.
 * `alsoInMulti` adds commands of its own after those, in the same MULTI.
 */
export async function addJobKeepingMarker(
  queue: Queue,
  name: string,
  data: unknown,
  { jobId, deduplication }: AddJobKeepingMarkerOptions,
  alsoInMulti?: (multi: IRedisTransaction) => void,
): Promise<string> {
  const client = await queue.client
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 1, lua: KEEP_MARKER })
  return addJobInTransaction(queue, name, data, { jobId, deduplication }, (multi) => {
    multi.runCommand(COMMAND, [`${queue.keys.de}:${deduplication.id}`, jobId])
    alsoInMulti?.(multi)
  })
}
