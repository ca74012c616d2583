import { ServiceError } from '@pf/service-kit'

/** Missing or wrong X-PF-Api-Key (spec, "Authentication" 1). */
export class ApiKeyError extends ServiceError {
  readonly code = 'ERR_API_KEY'
  readonly statusCode = 401
}

/** queryId or callbackUrl missing, or unusable: 400 `{error}`, no callback. */
export class InvalidEnvelopeError extends ServiceError {
  readonly code = 'ERR_INVALID_ENVELOPE'
  readonly statusCode = 400
}

/** Search parameters refused (sanctions `name` missing or empty): 400 `{error, queryId}`, no callback. */
export class InvalidParametersError extends ServiceError {
  readonly code = 'ERR_INVALID_PARAMETERS'
  readonly statusCode = 400
  constructor(message: string, queryId: string) {
    super(message, { extra: { queryId } })
  }
}

/** An outbound URL that is not http(s), or points at a loopback, private, link-local or metadata address. */
export class OutboundUrlError extends Error {
  readonly code = 'ERR_OUTBOUND_URL'
  constructor(message: string) {
    super(message)
    this.name = 'OutboundUrlError'
  }
}
