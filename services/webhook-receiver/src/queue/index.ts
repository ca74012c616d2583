// The queue's interface: all that receiver/ and worker/ (and config.ts) may import from queue/. Everything
// BullMQ, ioredis and the key layouts stays behind it.
export type {
  AcceptOutcome,
  EventStore,
  QuarantineEntry,
  QuarantineOutcome,
  QuarantineReason,
} from './event-store'
export { createEventStore } from './enqueue/create-event-store'
export type { OpenedEventStore, EventStoreOptions } from './enqueue/webhook-queue-store'
export { consumeEvents } from './consume/consume-events'
export type { EventConsumer, EventConsumerOptions, FailedEvent, QueuedEvent } from './consume/consume-events'
export type { Once } from './create-once'
export type { RedisConnection } from './redis/create-redis-connection'
export { openWorkerConnection } from './redis/open-worker-connection'
export { openDeadLetterQueue } from './dead-letters/open-dead-letter-queue'
export type { WebhookQueue } from './webhook-queue'
export { failedJobs } from './dead-letters/failed-jobs'
export type { FailedJob } from './dead-letters/failed-jobs'
export { listQuarantined, readQuarantined, releaseQuarantined } from './quarantine/quarantine'
export type { QuarantinedEvent, QuarantineSummary } from './quarantine/quarantine'
export { createQueueDashboard } from './dead-letters/create-queue-dashboard'
export type { QueueDashboardOptions } from './dead-letters/create-queue-dashboard'
export { DEFAULT_QUEUE_PREFIX, PLATFORM_RETRY_HORIZON_SECONDS } from './queue-names'
export type { JobSettings } from './default-job-options'
export { describeRedisTarget, parseHostPorts } from './redis/redis-target'
export { readEvictionPolicy } from './redis/read-eviction-policy'
export type { HostPort, RedisTarget } from './redis/redis-target'
export { ORDERING_MODES } from './ordering/ordering-mode'
export { markRetryLate } from './ordering/mark-replay-late'
export type { OrderingMode } from './ordering/ordering-mode'
export type { Lateness } from './ordering/create-session-ordering'
export { createShardedEventStore } from './shards/create-sharded-event-store'
export type { ShardedEventStore, ShardedEventStoreOptions } from './shards/create-sharded-event-store'
export { checkQueueLayout, LAYOUT_CHECK_TIMEOUT_MS } from './shards/check-queue-layout'
export type { LayoutClaim, QueueLayout } from './shards/claim-queue-layout'
export { QueueLayoutError } from './shards/queue-layout-error'
export { readQueueLayout } from './shards/read-queue-layout'
export { refuseOtherLayout } from './shards/refuse-other-layout'
export { MAX_QUEUE_SHARDS, prefixHashTag } from './shards/shard-prefixes'
export { logQueueLayout } from './shards/log-queue-layout'
