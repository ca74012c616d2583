import type { ProviderErrorCode } from './errors'

/** The kit's one table from error code to HTTP status (spec, "Errors"); other codes answer 500. */
export const PROVIDER_HTTP_STATUS: Readonly<Record<ProviderErrorCode, number>> = {
  ERR_API_KEY: 401,
  ERR_INVALID_ENVELOPE: 400,
  ERR_INVALID_PARAMETERS: 400,
  ERR_OUTBOUND_URL: 400,
  // Raised inside a query: it becomes the failed callback and the 500 of the spec's fourth row.
  ERR_SEARCH: 500,
}
