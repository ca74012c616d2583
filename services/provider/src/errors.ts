import { ServiceError } from '@pf/service-kit'

export type ProviderErrorCode =
  'ERR_API_KEY' | 'ERR_INVALID_ENVELOPE' | 'ERR_INVALID_PARAMETERS' | 'ERR_OUTBOUND_URL' | 'ERR_SEARCH_BUDGET'

/** Base of the provider's errors; their HTTP statuses are in `http-status.ts`. */
export abstract class ProviderError extends ServiceError<ProviderErrorCode> {}

/** Missing or wrong X-PF-Api-Key (spec, "Authentication" 1). */
export class ApiKeyError extends ProviderError {
  readonly code = 'ERR_API_KEY'
}

/** queryId or callbackUrl missing, or unusable: 400 `{error}`, no callback. */
export class InvalidEnvelopeError extends ProviderError {
  readonly code = 'ERR_INVALID_ENVELOPE'
}

/** Search parameters refused (sanctions `name` missing or empty): 400 `{error, queryId}`, no callback. */
export class InvalidParametersError extends ProviderError {
  readonly code = 'ERR_INVALID_PARAMETERS'
  constructor(message: string, queryId: string) {
    super(message, { extra: { queryId } })
  }
}

/**
 * An outbound URL that is not http(s), or points at (or resolves to) a loopback, private, link-local or
 * metadata address. In an envelope's `callbackUrl` it is a 400; during delivery, a failed query.
 */
export class OutboundUrlError extends ProviderError {
  readonly code = 'ERR_OUTBOUND_URL'
}

/** A search ran past its time budget (`SEARCH_TIME_BUDGET_MS`): a failed query, said as such. */
export class SearchBudgetError extends ProviderError {
  readonly code = 'ERR_SEARCH_BUDGET'
}
