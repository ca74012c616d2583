import type { LayoutClaim, QueueLayout } from './claim-queue-layout'
import { layoutKey } from './claim-queue-layout'
import { QueueLayoutError } from './queue-layout-error'

/**
 * Throws `QueueLayoutError`, saying what to start with instead, when a process given `shards` (and
 * `reshardFrom`) would use another layout than the one Redis records: what a start and `doctor` both refuse.
 */
export function refuseOtherLayout(
  { shards: recorded, resharding }: QueueLayout,
  { prefix, shards, reshardFrom }: Pick<LayoutClaim, 'prefix' | 'shards' | 'reshardFrom'>,
): void {
  const where = `(${layoutKey(prefix)})`
  const running = resharding
    ? `a resharding from ${resharding.from} to ${recorded} shards runs until ${new Date(resharding.until).toISOString()}`
    : undefined
  if (recorded !== shards)
    throw new QueueLayoutError(
      `QUEUE_SHARDS=${shards} but Redis records ${recorded} shard(s) for this queue ${where}${running ? `, and ${running}` : ''}: ` +
        `webhooks' dedup markers live in their shard for the whole WEBHOOK_DEDUP_TTL_SECONDS, so another number would accept redeliveries as new events. ` +
        (running
          ? `Start with QUEUE_SHARDS=${recorded} QUEUE_RESHARD_FROM=${resharding!.from} until it has ended.`
          : `Start with QUEUE_SHARDS=${recorded}, or change it by the resharding procedure (README, "Changing the number of shards"): every process with QUEUE_SHARDS=${shards} QUEUE_RESHARD_FROM=${recorded}.`),
    )
  if (resharding && reshardFrom !== resharding.from)
    throw new QueueLayoutError(
      `${running} ${where}: every process needs QUEUE_RESHARD_FROM=${resharding.from} until then (got ${reshardFrom === undefined ? 'none' : `QUEUE_RESHARD_FROM=${reshardFrom}`}), so that receivers still find the old layout's dedup markers and workers drain its queues.`,
    )
}
