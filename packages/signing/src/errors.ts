export type SigningErrorCode =
  | 'ERR_SIGNATURE_MISMATCH'
  | 'ERR_PAYLOAD_TOO_LARGE'
  | 'ERR_INVALID_JSON'
  | 'ERR_BODY_READ'
  | 'ERR_BODY_ALREADY_CONSUMED'

/**
 * Base of the refusals of `readRawBody`, `verifyRequest`, `parseJsonBody` and the verifying middleware. `code`
 * is stable and safe to branch on; the HTTP status is the service's business: map `code` in its own table.
 */
export abstract class SigningError extends Error {
  abstract readonly code: SigningErrorCode
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** Missing header or wrong signature. */
export class SignatureMismatchError extends SigningError {
  readonly code = 'ERR_SIGNATURE_MISMATCH'
}

/** The raw body is larger than the configured limit. */
export class PayloadTooLargeError extends SigningError {
  readonly code = 'ERR_PAYLOAD_TOO_LARGE'
}

/** The signature matched but the body is not JSON. */
export class InvalidJsonError extends SigningError {
  readonly code = 'ERR_INVALID_JSON'
}

/** The client went away or sent a body shorter than its Content-Length. */
export class BodyReadError extends SigningError {
  readonly code = 'ERR_BODY_READ'
}

/**
 * A body parser ran before the verifying middleware, so the raw bytes are gone. This is a wiring bug in the
 * service (a 500, not the sender's fault): the middleware must be mounted before any JSON parser on its route.
 */
export class BodyAlreadyConsumedError extends SigningError {
  readonly code = 'ERR_BODY_ALREADY_CONSUMED'
}
