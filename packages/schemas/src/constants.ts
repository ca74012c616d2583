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

/** Statuses of a provider's status callback. */
export const CALLBACK_STATUSES = ['delivered', 'failed'] as const
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number]

/** The draft every schema here is written in; ajv compiles them with its 2020-12 dialect. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'
