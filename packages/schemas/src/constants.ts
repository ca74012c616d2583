/** Delivery mechanisms of a DeliverySpec (spec, "DeliverySpec"). */
export const DELIVERY_MECHANISMS = ['pf_s3_sync', 'webhook', 'inline'] as const
export type DeliveryMechanism = (typeof DELIVERY_MECHANISMS)[number]

/** The five webhook event kinds (spec, "Events"). */
export const WEBHOOK_EVENT_KINDS = [
  'session.created',
  'session.extended',
  'session.ended',
  'purchase.completed',
  'purchase.failed',
] as const
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number]

/** Every `webhookId` starts with this (spec, "Webhook envelope"). */
export const WEBHOOK_ID_PREFIX = 'wh_'
/**
 * Longest `webhookId` accepted (this kit's bound; the spec gives none): it becomes a Redis key, so an id of a
 * megabyte would be one. The platform's ids are about 30 characters.
 */
export const WEBHOOK_ID_MAX_LENGTH = 200

/** Statuses of a provider's status callback. */
export const CALLBACK_STATUSES = ['delivered', 'failed'] as const
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number]

/** The draft every schema here is written in; ajv compiles them with its 2020-12 dialect. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'

/** The platform's retries after a failed webhook delivery: 30 s, 2 min, 10 min, 1 h, 6 h (spec, "Webhook delivery"). */
export const PLATFORM_RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const
/** A webhook delivery counts only if the receiver answers 2xx within this (spec, "Limits"). */
export const WEBHOOK_RESPONSE_BUDGET_MS = 5000

/** The header a provider compares with its API key (spec, "Authentication" 1). */
export const API_KEY_HEADER = 'X-PF-Api-Key'
/** The provider's documented demo API key: fine on a laptop, refused with NODE_ENV=production. */
export const DEMO_API_KEY = 'pf-demo-api-key'
