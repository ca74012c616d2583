import { createBatchedEventStore } from './create-batched-event-store'
import { BULLMQ_VERSION_PINNED } from './create-job-adder'
import { createQueueAddEventStore } from './create-queue-add-event-store'
import type { OpenedEventStore, EventStoreOptions } from './webhook-queue-store'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const installedBullmq = (require('bullmq/package.json') as { version: string }).version

/**
 * Where the receiver's events go: a BullMQ job per event, deduplicated by `webhookId`, or the quarantine, under
 * the same dedup markers. The one place that chooses how jobs are added: batched (`createBatchedEventStore`)
 * with the pinned BullMQ, one by one with `Queue.add`'s script (`createQueueAddEventStore`) with any other
 * version (said once at warn), or when `viaQueueAdd` asks for it (tests).
 *
 * Dedup uses BullMQ's `deduplication` option in throttle mode (an `id` with a `ttl`): the marker key is set
 * inside the same Lua script (or MULTI) that creates the job, so accepting and marking are one atomic step; a
 * crash can neither store an event without its marker nor mark one without storing it. With a `ttl` the marker
 * survives the job's completion and trimming, and since it holds `job:<id>` rather than the job's id, also the
 * job's removal (`job.remove()`, `Queue.clean`, the dashboard), which deletes only a marker holding the removed
 * job's id: a redelivery stays a duplicate for the whole window whatever became of the job.
 *
 * @example
 * const { store, queue } = createEventStore({ ...config, prefix: config.queuePrefix, logger })
 */
export function createEventStore(options: EventStoreOptions & { viaQueueAdd?: boolean }): OpenedEventStore {
  const { viaQueueAdd = false, ...rest } = options
  if (!viaQueueAdd && installedBullmq === BULLMQ_VERSION_PINNED) return createBatchedEventStore(rest)
  if (!viaQueueAdd)
    rest.logger?.warn(
      { installed: installedBullmq, pinned: BULLMQ_VERSION_PINNED },
      'BullMQ is not the version the batched enqueue was checked against: adding jobs one by one with Queue.add',
    )
  return createQueueAddEventStore(rest)
}
