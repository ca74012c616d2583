/**
 * Base of every service's errors. `code` is stable; `statusCode` is the HTTP answer; `extra` fields join
 * `error` in the JSON body (the provider's `queryId`); `headers` are set on the response.
 */
export abstract class ServiceError extends Error {
  abstract readonly code: string
  abstract readonly statusCode: number
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
