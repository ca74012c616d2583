export type SigningErrorCode =
  | 'ERR_SIGNATURE_MISMATCH'
  | 'ERR_PAYLOAD_TOO_LARGE'
  | 'ERR_INVALID_JSON'
  | 'ERR_BODY_READ'
  | 'ERR_BODY_ALREADY_CONSUMED'

/**
 * Base of the errors the verifying middleware passes to `next()`. `statusCode` is the HTTP status a service's
 * error handler should answer with; `code` is stable and safe to branch on.
 */
export abstract class SigningError extends Error {
  abstract readonly code: SigningErrorCode
  abstract readonly statusCode: number
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** Missing header or wrong signature. */
export class SignatureMismatchError extends SigningError {
  readonly code = 'ERR_SIGNATURE_MISMATCH'
  readonly statusCode = 401
}

/** The raw body is larger than the configured limit. */
export class PayloadTooLargeError extends SigningError {
  readonly code = 'ERR_PAYLOAD_TOO_LARGE'
  readonly statusCode = 413
}

/** The signature matched but the body is not JSON. */
export class InvalidJsonError extends SigningError {
  readonly code = 'ERR_INVALID_JSON'
  readonly statusCode = 400
}

/** The client went away or sent a body shorter than its Content-Length. */
export class BodyReadError extends SigningError {
  readonly code = 'ERR_BODY_READ'
  readonly statusCode = 400
}

/**
 * A body parser ran before the verifying middleware, so the raw bytes are gone. This is a wiring bug in the
 * service, hence 500: the middleware must be mounted before any JSON parser on its route.
 */
export class BodyAlreadyConsumedError extends SigningError {
  readonly code = 'ERR_BODY_ALREADY_CONSUMED'
  readonly statusCode = 500
}
