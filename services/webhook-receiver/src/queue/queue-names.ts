import { PLATFORM_RETRY_SCHEDULE_MS } from '@pf/schemas'

/** The queue that carries verified webhooks from the receiver to the worker. */
export const WEBHOOK_QUEUE_NAME = 'webhooks'

/**
 * Default key prefix. The braces are a Redis Cluster hash tag: every key of the queue lands in one slot, as
 * BullMQ's Lua scripts require.
 */
export const DEFAULT_QUEUE_PREFIX = '{pf}'

/** The platform's whole retry horizon: the sum of its retry delays (spec, "Webhook delivery"). */
export const PLATFORM_RETRY_HORIZON_SECONDS =
  PLATFORM_RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0) / 1000

/**
 * What a dedup marker (`<prefix>:webhooks:de:<webhookId>`, BullMQ's deduplication key) holds: where the event
 * went, never a bare job id. BullMQ deletes the marker that holds the id of a job it removes (`job.remove()`,
 * `Queue.clean`, `drain`, bull-board): this one it leaves, so a removed job's webhookId stays known for the
 * whole dedup window, and the platform's retry of it is still a duplicate.
 */
export const MARKER_OF_JOB = 'job:'
/** A dedup marker of a quarantined event: `quarantine:<id>`. */
export const MARKER_OF_QUARANTINE = 'quarantine:'
