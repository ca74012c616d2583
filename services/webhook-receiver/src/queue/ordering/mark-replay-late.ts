import type { IRedisTransaction, Queue } from 'bullmq'
import { splitTraceData } from '../job-trace-context'
import { JOB_FIELDS } from './session-keys'
import { sessionOf, type EventPlace } from './session-of'
import { bullmqQueueOf, type WebhookQueue } from '../webhook-queue'

const COMMAND = 'pfMarkReplayLate'

// KEYS[1] the job's hash. Only a job that is there: a replay the enqueue dropped as a duplicate leaves none.
const MARK = `
if redis.call("EXISTS", KEYS[1]) == 1 then redis.call("HSET", KEYS[1], "${JOB_FIELDS.late}", 1) end
return 1`

type ScriptClient = { defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void }

/**
 * For a quarantined event handed back by `pf-dead-letters replay` with `WEBHOOK_ORDERING=session`: in the MULTI
 * that adds its job, the job is marked late (`pflate` in its hash), which the worker hands on as late (as it does
 * a failed job's replay, marked when it dead-lettered).
 */
export function markReplayLate(
  queue: Queue,
  client: ScriptClient,
  place: EventPlace,
): (multi: IRedisTransaction) => void {
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 1, lua: MARK })
  return (multi) => multi.runCommand(COMMAND, [`${queue.keys['']}${place.jobId}`])
}

/**
 * For a failed job handed back by `pf-dead-letters replay` (`job.retry()`, same job id): marked late before the
 * retry, as `DEAD` marks it, because that mark is missing when the job dead-lettered with ordering off, or through
 * BullMQ's stalled-job path with no later event of its session.
 */
export async function markRetryLate(handle: WebhookQueue, data: unknown, jobId: string): Promise<void> {
  if (!sessionOf(splitTraceData(data).event, jobId)) return
  const queue = bullmqQueueOf(handle)
  const client = (await queue.client) as unknown as ScriptClient &
    Record<string, (...args: unknown[]) => Promise<unknown>>
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 1, lua: MARK })
  await client[COMMAND]!(`${queue.keys['']}${jobId}`)
}
