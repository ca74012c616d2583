import { ServiceError } from '@pf/service-kit'

/** Errors of this service carry an OAuth 2.0 / RFC 6750 error code for the `{error, error_description}` body. */
export abstract class ExchangeError extends ServiceError {
  abstract readonly oauthError: string
}

/** Any marketplace-JWT failure: 401 with `WWW-Authenticate: Bearer` (RFC 6750 section 3). */
export class InvalidTokenError extends ExchangeError {
  readonly code = 'ERR_INVALID_TOKEN'
  readonly statusCode = 401
  readonly oauthError = 'invalid_token'
  constructor(description: string) {
    super(description, {
      headers: {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}"`,
      },
    })
  }
}

/** The identity provider refused (any non-success answer other than overload). */
export class IdpRefusedError extends ExchangeError {
  readonly code = 'ERR_IDP_ERROR'
  readonly statusCode = 502
  readonly oauthError = 'idp_error'
}

/** The identity provider could not be reached, timed out, or stayed rate-limited. */
export class IdpDownError extends ExchangeError {
  readonly code = 'ERR_IDP_UNAVAILABLE'
  readonly statusCode = 503
  readonly oauthError = 'idp_unavailable'
  constructor(description: string, retryAfterSeconds: number, cause?: unknown) {
    super(description, { headers: { 'Retry-After': String(retryAfterSeconds) }, cause })
  }
}

/** A malformed request to this service (e.g. logout without a refresh token). */
export class InvalidRequestError extends ExchangeError {
  readonly code = 'ERR_INVALID_REQUEST'
  readonly statusCode = 400
  readonly oauthError = 'invalid_request'
}
