import type { RedisConnection } from '../redis/create-redis-connection'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import { QueueLayoutError } from './queue-layout-error'

/** What Redis records of the queue's layout, after this start's claim. */
export interface QueueLayout {
  shards: number
  /** While a resharding runs: the shards before it, and until when (ms) their dedup markers may still hold. */
  resharding?: { from: number; until: number }
}

export interface LayoutClaim {
  prefix: string
  /** `QUEUE_SHARDS`. */
  shards: number
  /** `QUEUE_RESHARD_FROM`: the number of shards Redis records, to be replaced by `shards`. */
  reshardFrom?: number
  /** `WEBHOOK_DEDUP_TTL_SECONDS`: a resharding lasts this long, the life of the old layout's markers. */
  dedupTtlSeconds: number
  now?: number
}

/** `<prefix>:webhooks:layout`: a hash, `shards`, and while a resharding runs, `from` and `until` (ms). */
export const layoutKey = (prefix: string) => `${prefix}:${WEBHOOK_QUEUE_NAME}:layout`

// KEYS: the layout, and two keys every job of the unsharded queue writes (meta, id), in the same slot.
// ARGV: shards, reshard-from ('' for none), now (ms), until (ms) of a resharding begun now.
// No record but an unsharded queue with jobs: it was laid out before layouts were recorded, as 1 shard.
const CLAIM = `
local shards, from, till = unpack(redis.call("HMGET", KEYS[1], "shards", "from", "until"))
if not shards then
  if redis.call("EXISTS", KEYS[2], KEYS[3]) > 0 then shards = "1" else shards = ARGV[1] end
  redis.call("HSET", KEYS[1], "shards", shards)
end
if from and tonumber(till) <= tonumber(ARGV[3]) then
  redis.call("HDEL", KEYS[1], "from", "until")
  from, till = false, false
end
if not from and ARGV[2] ~= "" and shards == ARGV[2] and shards ~= ARGV[1] then
  redis.call("HSET", KEYS[1], "shards", ARGV[1], "from", ARGV[2], "until", ARGV[4])
  shards, from, till = ARGV[1], ARGV[2], ARGV[4]
end
return {shards, from or "", till or ""}`

/**
 * Reads, and records on first use, how many shards the queue under `prefix` is spread over, and refuses
 * (`QueueLayoutError`, naming both numbers) a process that would use another: a webhook's dedup marker lives in
 * its shard for the whole dedup TTL, so another number of shards would look for it elsewhere and take a
 * redelivery for a new event. With `reshardFrom` equal to the recorded number, the record becomes `shards`, the
 * resharding running for `dedupTtlSeconds`, while which every process must be given the same `reshardFrom` (so
 * receivers also check the old layout's markers and workers drain its queues). A resharding past its end is
 * dropped from the record by the next start. One Lua script: concurrent starts agree.
 *
 * @example
 * await claimQueueLayout(redis, { prefix: '{pf}', shards: 3, dedupTtlSeconds: 604800 })
 */
export async function claimQueueLayout(
  redis: RedisConnection,
  { prefix, shards, reshardFrom, dedupTtlSeconds, now = Date.now() }: LayoutClaim,
): Promise<QueueLayout> {
  const queueKey = `${prefix}:${WEBHOOK_QUEUE_NAME}:`
  const [recorded, from, until] = (await redis.eval(
    CLAIM,
    3,
    layoutKey(prefix),
    `${queueKey}meta`,
    `${queueKey}id`,
    String(shards),
    reshardFrom === undefined ? '' : String(reshardFrom),
    String(now),
    String(now + dedupTtlSeconds * 1000),
  )) as [string, string, string]
  const layout: QueueLayout = {
    shards: Number(recorded),
    resharding: from ? { from: Number(from), until: Number(until) } : undefined,
  }
  refuseOtherLayout(layout, { prefix, shards, reshardFrom })
  return layout
}

function refuseOtherLayout(
  layout: QueueLayout,
  claim: Pick<LayoutClaim, 'prefix' | 'shards' | 'reshardFrom'>,
): void {
  const mismatch = layoutMismatch(layout, claim)
  if (mismatch) throw new QueueLayoutError(`${mismatch.problem} ${mismatch.fix}`)
}

/**
 * Why a process given `claim` may not use the queue laid out as `layout` (what it is refused with, and what to
 * start it with instead), or `undefined` when it may: shared by a start's claim and the doctor's read-only check.
 */
export function layoutMismatch(
  { shards: recorded, resharding }: QueueLayout,
  { prefix, shards, reshardFrom }: Pick<LayoutClaim, 'prefix' | 'shards' | 'reshardFrom'>,
): { problem: string; fix: string } | undefined {
  const where = `(${layoutKey(prefix)})`
  const running = resharding
    ? `a resharding from ${resharding.from} to ${recorded} shards runs until ${new Date(resharding.until).toISOString()}`
    : undefined
  if (recorded !== shards)
    return {
      problem:
        `QUEUE_SHARDS=${shards} but Redis records ${recorded} shard(s) for this queue ${where}${running ? `, and ${running}` : ''}: ` +
        `webhooks' dedup markers live in their shard for the whole WEBHOOK_DEDUP_TTL_SECONDS, so another number would accept redeliveries as new events.`,
      fix: running
        ? `Start with QUEUE_SHARDS=${recorded} QUEUE_RESHARD_FROM=${resharding!.from} until it has ended.`
        : `Start with QUEUE_SHARDS=${recorded}, or change it by the resharding procedure (README, "Changing the number of shards"): every process with QUEUE_SHARDS=${shards} QUEUE_RESHARD_FROM=${recorded}.`,
    }
  if (resharding && reshardFrom !== resharding.from)
    return {
      problem: `${running} ${where}: every process needs QUEUE_RESHARD_FROM=${resharding.from} until then (got ${reshardFrom === undefined ? 'none' : `QUEUE_RESHARD_FROM=${reshardFrom}`}),`,
      fix: `so that receivers still find the old layout's dedup markers and workers drain its queues.`,
    }
  return undefined
}
