import { ServiceError } from '@pf/service-kit'

export type ExchangeErrorCode = 'ERR_INVALID_TOKEN' | 'ERR_INVALID_REQUEST' | 'ERR_MARKETPLACE_UNAVAILABLE'

/** Base of the exchange's own errors; identity-provider failures stay @pf/idp-clients' errors. */
export abstract class ExchangeError extends ServiceError<ExchangeErrorCode> {}

/** Any marketplace-JWT failure: 401 with `WWW-Authenticate: Bearer` (RFC 6750 section 3). */
export class InvalidTokenError extends ExchangeError {
  readonly code = 'ERR_INVALID_TOKEN'
  constructor(description: string) {
    super(description, {
      headers: {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}"`,
      },
    })
  }
}

/** A malformed request to this service (e.g. logout without a refresh token). */
export class InvalidRequestError extends ExchangeError {
  readonly code = 'ERR_INVALID_REQUEST'
}

/** The marketplace's signing keys cannot be fetched (and the token's key is not among those known): 503. */
export class MarketplaceUnavailableError extends ExchangeError {
  readonly code = 'ERR_MARKETPLACE_UNAVAILABLE'
}
