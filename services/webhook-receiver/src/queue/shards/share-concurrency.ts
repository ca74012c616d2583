/**
 * How a worker process's `WORKER_CONCURRENCY` is divided among the queues it consumes: evenly, the remainder
 * to the first ones, at least one each (so with fewer slots than queues, the process runs one job per queue at
 * most). A BullMQ worker fetches for its own slots only: a slot of an idle shard is not lent to a busy one, which
 * the hash spreading sessions evenly makes rare.
 *
 * @example
 * shareConcurrency(10, 3) // [4, 3, 3]
 */
export function shareConcurrency(concurrency: number, queues: number): number[] {
  return Array.from({ length: queues }, (_, index) =>
    Math.max(1, Math.floor(concurrency / queues) + (index < concurrency % queues ? 1 : 0)),
  )
}
