import { ServiceError } from '@pf/service-kit'

/** Signature fine, JSON fine, but not a webhook envelope. */
export class InvalidEnvelopeError extends ServiceError {
  readonly code = 'ERR_INVALID_ENVELOPE'
  readonly statusCode = 400
}

/**
 * Redis did not confirm the event in time. 503 tells the platform to retry later; the event is not lost
 * because it was never acknowledged.
 */
export class StoreUnavailableError extends ServiceError {
  readonly code = 'ERR_STORE_UNAVAILABLE'
  readonly statusCode = 503
}
