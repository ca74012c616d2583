import type { IRedisTransaction, Queue } from 'bullmq'
import { splitTraceData } from '../job-trace-context'
import { sessionKeys } from './session-keys'
import { sessionOf, type EventPlace } from './session-of'
import { bullmqQueueOf, type WebhookQueue } from '../webhook-queue'

const COMMAND = 'pfMarkReplayLate'

// KEYS[1] the session's state; ARGV: the job id, the state's time-to-live (ms).
const MARK = `
redis.call("HSET", KEYS[1], "late:" .. ARGV[1], 1)
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1`

/**
 * For a quarantined event handed back by `pf-dead-letters replay` with `WEBHOOK_ORDERING=session`: in the MULTI
 * that adds its job, the session learns that this job is a replay, which the worker hands on as late (as it
 * does a failed job's replay, marked when it dead-lettered).
 */
export function markReplayLate(
  queue: Queue,
  client: { defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void },
  place: EventPlace,
  ttlMs: number,
): (multi: IRedisTransaction) => void {
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 1, lua: MARK })
  const { state } = sessionKeys(`${queue.keys['']}`, place.sessionKey)
  return (multi) => multi.runCommand(COMMAND, [state, place.jobId, ttlMs])
}

/**
 * For a failed job handed back by `pf-dead-letters replay` (`job.retry()`, same job id): marked late before the
 * retry, as `DEAD` marks it, because that mark is missing when the job dead-lettered with ordering off, through
 * BullMQ's stalled-job path with no later event of its session, or longer ago than the state's time-to-live.
 */
export async function markRetryLate(
  handle: WebhookQueue,
  data: unknown,
  jobId: string,
  ttlMs: number,
): Promise<void> {
  const place = sessionOf(splitTraceData(data).event, jobId)
  if (!place) return
  const queue = bullmqQueueOf(handle)
  const client = (await queue.client) as unknown as {
    defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void
  } & Record<string, (...args: unknown[]) => Promise<unknown>>
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 1, lua: MARK })
  await client[COMMAND]!(sessionKeys(`${queue.keys['']}`, place.sessionKey).state, jobId, ttlMs)
}
