/** The queue that carries verified webhooks from the receiver to the worker. */
export const WEBHOOK_QUEUE_NAME = 'webhooks'

/**
 * Default key prefix. The braces are a Redis Cluster hash tag: every key of the queue lands in one slot, as
 * BullMQ's Lua scripts require.
 */
export const DEFAULT_QUEUE_PREFIX = '{pf}'

/** The platform's whole retry horizon: 30 s + 2 min + 10 min + 1 h + 6 h (spec, "Webhook delivery"). */
export const PLATFORM_RETRY_HORIZON_SECONDS = 30 + 2 * 60 + 10 * 60 + 60 * 60 + 6 * 60 * 60
