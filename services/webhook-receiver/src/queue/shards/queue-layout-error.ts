/** A start refused: Redis records another number of queue shards than this process was given. */
export class QueueLayoutError extends Error {
  readonly code = 'ERR_QUEUE_LAYOUT'
  override readonly name = 'QueueLayoutError'
}
