import { ServiceError } from '@pf/service-kit'

export type ReceiverErrorCode = 'ERR_INVALID_ENVELOPE' | 'ERR_STORE_UNAVAILABLE'

/** Base of the receiver's errors; their HTTP statuses are in `http-status.ts`. */
export abstract class ReceiverError extends ServiceError<ReceiverErrorCode> {}

/** Signature fine, JSON fine, but not a webhook envelope. */
export class InvalidEnvelopeError extends ReceiverError {
  readonly code = 'ERR_INVALID_ENVELOPE'
}

/**
 * Redis did not confirm the event in time. 503 tells the platform to retry later; the event is not lost
 * because it was never acknowledged.
 */
export class StoreUnavailableError extends ReceiverError {
  readonly code = 'ERR_STORE_UNAVAILABLE'
}
