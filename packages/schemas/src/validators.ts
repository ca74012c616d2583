import { CallbackPayloadSchema } from './callback-payload'
import { createValidator } from './create-validator'
import { DeliveryResultSchema } from './delivery-result'
import { QueryEnvelopeSchema } from './query-envelope'
import { CompaniesParametersSchema, SanctionsParametersSchema } from './search-parameters'
import { WebhookEnvelopeSchema } from './webhook-envelope'

/** Validates a query envelope: `queryId` and `callbackUrl` present and non-null (spec, query-processing table). */
export const validateQueryEnvelope = createValidator(QueryEnvelopeSchema)
/** Validates `parameters` of a companies search (an absent `parameters` is valid: pass `{}`). */
export const validateCompaniesParameters = createValidator(CompaniesParametersSchema)
/** Validates `parameters` of a sanctions search: `name` missing or empty is an error (spec). */
export const validateSanctionsParameters = createValidator(SanctionsParametersSchema)
export const validateCallbackPayload = createValidator(CallbackPayloadSchema)
export const validateDeliveryResult = createValidator(DeliveryResultSchema)
/** Validates the envelope only; `event` may be any kind (see `validateWebhookEvent`). */
export const validateWebhookEnvelope = createValidator(WebhookEnvelopeSchema)
