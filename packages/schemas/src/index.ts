export {
  API_KEY_HEADER,
  CALLBACK_STATUSES,
  DELIVERY_MECHANISMS,
  DEMO_API_KEY,
  JSON_SCHEMA_DIALECT,
  PLATFORM_RETRY_SCHEDULE_MS,
  WEBHOOK_EVENT_KINDS,
  WEBHOOK_ID_MAX_LENGTH,
  WEBHOOK_ID_PREFIX,
  WEBHOOK_RESPONSE_BUDGET_MS,
} from './constants'
export type { CallbackStatus, DeliveryMechanism, WebhookEventKind } from './constants'

export { DeliverySpecSchema, QueryEnvelopeSchema } from './query-envelope'
export type { DeliverySpec, QueryEnvelope } from './query-envelope'
export {
  CompaniesParametersSchema,
  MAX_BIRTH_YEAR,
  MAX_LIST_NAME_LENGTH,
  MAX_SCREENING_LISTS,
  MAX_SEARCH_FILTER_LENGTH,
  MAX_SEARCH_NAME_LENGTH,
  MAX_SEARCH_NAME_WORDS,
  MIN_BIRTH_YEAR,
  SanctionsParametersSchema,
  SCREENING_ENTITY_TYPES,
} from './search-parameters'
export type { CompaniesParameters, SanctionsParameters } from './search-parameters'
export {
  MAX_ALERT_TOKEN_LENGTH,
  MAX_ALERT_URL_LENGTH,
  MAX_DECIDED_BY_LENGTH,
  MAX_DECISION_NOTE_LENGTH,
  MAX_WATCH_ID_LENGTH,
  WATCH_ID_PATTERN,
  WatchBodySchema,
  WatchDecisionSchema,
  WatchSubjectSchema,
} from './watch-bodies'
export type { WatchBody, WatchDecision, WatchSubject } from './watch-bodies'
export { CallbackPayloadSchema } from './callback-payload'
export type { CallbackPayload } from './callback-payload'
export { DeliveryResultSchema } from './delivery-result'
export type { DeliveryResult } from './delivery-result'
export { WebhookEnvelopeSchema } from './webhook-envelope'
export type { WebhookEnvelope, WebhookEvent } from './webhook-envelope'
export {
  PurchaseCompletedDataSchema,
  PurchaseFailedDataSchema,
  SessionCreatedDataSchema,
  SessionEndedDataSchema,
  SessionExtendedDataSchema,
  WEBHOOK_EVENT_DATA_SCHEMAS,
} from './webhook-events'
export type {
  PurchaseCompletedData,
  PurchaseFailedData,
  SessionCreatedData,
  SessionEndedData,
  SessionExtendedData,
  WebhookEventDataMap,
} from './webhook-events'

export type { ValidationResult } from './validation-result'
export { createValidator } from './create-validator'
export {
  validateCallbackPayload,
  validateCompaniesParameters,
  validateDeliveryResult,
  validateQueryEnvelope,
  validateSanctionsParameters,
  validateWebhookEnvelope,
} from './validators'
export { isKnownEventKind, validateWebhookEvent } from './validate-webhook-event'
export { parseDateTime } from './parse-date-time'

export { resolveDeliveryMechanism } from './resolve-delivery-mechanism'
export { deliveryObjectKey, resolveS3Target } from './resolve-s3-target'
export type { S3Target } from './resolve-s3-target'
export { serializeCallbackPayload } from './serialize-callback-payload'

export { defineHandlers } from './define-handlers'
export type { HandlerContext, WebhookHandler, WebhookHandlers } from './define-handlers'
export { UnrecoverableWebhookError } from './unrecoverable-webhook-error'
