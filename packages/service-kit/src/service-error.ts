/**
 * Base of every service's errors. `code` is stable and drawn from the service's own union of codes; the HTTP
 * status is not the error's business but the service's table (`toErrorAnswer(error, table)`, used by `createErrorHandler({ table })`).
 * `extra` fields join `error` in the JSON body (the provider's `queryId`); `headers` are set on the response.
 *
 * @example
 * type ProviderErrorCode = 'ERR_API_KEY' | 'ERR_INVALID_ENVELOPE'
 * class ApiKeyError extends ServiceError<ProviderErrorCode> { readonly code = 'ERR_API_KEY' }
 */
export abstract class ServiceError<Code extends string = string> extends Error {
  abstract readonly code: Code
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>
  constructor(
    message: string,
    {
      cause,
      extra = {},
      headers = {},
    }: { cause?: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause })
    this.name = new.target.name
    this.extra = extra
    this.headers = headers
  }
}
