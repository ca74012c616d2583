import { ServiceError } from '@pf/service-kit'

/** The kit's own codes; a provider's errors may add theirs (a told search failure, say). */
export type ProviderErrorCode =
  'ERR_API_KEY' | 'ERR_INVALID_ENVELOPE' | 'ERR_INVALID_PARAMETERS' | 'ERR_OUTBOUND_URL' | 'ERR_SEARCH'

/**
 * Base of the errors whose message the caller may read: thrown in a search or a delivery, its message is the
 * failed answer's and callback's `error` (`search failed: <message>`); any other error is said only as
 * `search failed` or `delivery failed` (a dependency's text stays in the log). Statuses: `http-status.ts`.
 */
export abstract class ProviderError<Code extends string = string> extends ServiceError<Code> {}

/** Missing or wrong X-PF-Api-Key (spec, "Authentication" 1). */
export class ApiKeyError extends ProviderError<ProviderErrorCode> {
  readonly code = 'ERR_API_KEY'
}

/** queryId or callbackUrl missing, or unusable: 400 `{error}`, no callback. */
export class InvalidEnvelopeError extends ProviderError<ProviderErrorCode> {
  readonly code = 'ERR_INVALID_ENVELOPE'
}

/** Search parameters refused (sanctions `name` missing or empty): 400 `{error, queryId}`, no callback. */
export class InvalidParametersError extends ProviderError<ProviderErrorCode> {
  readonly code = 'ERR_INVALID_PARAMETERS'
  constructor(message: string, queryId: string) {
    super(message, { extra: { queryId } })
  }
}

/**
 * An outbound URL that is not http(s), or points at (or resolves to) a loopback, private, link-local or
 * metadata address. In an envelope's `callbackUrl` it is a 400; during delivery, a failed query.
 */
export class OutboundUrlError extends ProviderError<ProviderErrorCode> {
  readonly code = 'ERR_OUTBOUND_URL'
}

/** A search that failed for a reason the caller may read (`search failed: <message>`): a failed query. */
export class SearchError extends ProviderError<ProviderErrorCode> {
  readonly code = 'ERR_SEARCH'
}
