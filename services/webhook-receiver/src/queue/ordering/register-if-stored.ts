import type { IRedisTransaction, Queue } from 'bullmq'
import type { RedisConnection } from '../redis/create-redis-connection'
import { MARKER_OF_JOB } from '../queue-names'
import { JOB_FIELDS, sessionKeys } from './session-keys'
import type { EventPlace } from './session-of'

const COMMAND = 'pfRegisterIfStored'

// KEYS[1] the dedup marker, KEYS[2] the session's pending set, KEYS[3] the job; ARGV: the marker a job stored now
// leaves, the score, the member, the ttl, the session's key part. Only when the job was stored now (its marker
// holds it), never for a duplicate. The job's hash gets its place, as in the batched enqueue.
const REGISTER_IF_STORED = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("ZADD", KEYS[2], ARGV[2], ARGV[3])
  redis.call("PEXPIRE", KEYS[2], ARGV[4])
  redis.call("HSET", KEYS[3], "${JOB_FIELDS.session}", ARGV[5], "${JOB_FIELDS.timestamp}", ARGV[2])
end
return 1`

/**
 * For the enqueue by `Queue.add` (`addJobKeepingMarker`'s `alsoInMulti`): the event joins its session's pending
 * set in the MULTI that adds it, after its marker was rewritten, as the batched script does in its own.
 */
export function registerIfStored(
  queue: Queue,
  client: RedisConnection,
  place: EventPlace,
  ttlMs: number,
): (multi: IRedisTransaction) => void {
  if (!(COMMAND in client)) client.defineCommand(COMMAND, { numberOfKeys: 3, lua: REGISTER_IF_STORED })
  const marker = `${queue.keys.de}:${place.webhookId}`
  const { pending } = sessionKeys(`${queue.keys['']}`, place.sessionKey)
  return (multi) =>
    multi.runCommand(COMMAND, [
      marker,
      pending,
      `${queue.keys['']}${place.jobId}`,
      `${MARKER_OF_JOB}${place.jobId}`,
      place.score,
      place.member,
      ttlMs,
      place.sessionKey,
    ])
}
