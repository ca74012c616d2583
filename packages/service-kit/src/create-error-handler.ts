import type { ErrorRequestHandler } from 'express'
import type { Logger } from 'pino'
import { createLogThrottle } from './create-log-throttle'
import { ServiceError } from './service-error'

interface HttpLikeError {
  statusCode?: unknown
  status?: unknown
  message?: string
  code?: unknown
}

export interface ErrorBodyInput {
  status: number
  message: string
  code: string | undefined
  error: unknown
}

export interface ErrorHandlerOptions<Code extends string> {
  logger: Logger
  /**
   * The service's one table from error code to HTTP status: its own codes and the library codes it expects
   * (e.g. `@pf/signing`'s). An error whose code is in the table is answered with that status and its message.
   */
  statusByCode: Readonly<Record<Code, number>>
  /** The JSON body for an error; default `{ error: message, ...extra }`. */
  toBody?: (input: ErrorBodyInput) => Record<string, unknown>
  /** Headers for an error beyond a `ServiceError`'s own (e.g. `Retry-After` read from a library error). */
  headersOf?: (error: unknown) => Record<string, string>
  /** Server errors of one kind are logged once per window, then as one line with a count. Default 10 s. */
  logWindowMs?: number
}

const httpStatusOf = (error: HttpLikeError): number | undefined => {
  const candidate = error.statusCode ?? error.status
  return typeof candidate === 'number' && candidate >= 400 && candidate < 500 ? candidate : undefined
}

/**
 * The one error handler of a service. A code in the service's table gives the status; other client errors
 * that carry a 4xx `status` (body-parser's) keep it; anything else is a 500 whose details are logged, never
 * sent. Server errors are logged, client errors are not; a run of one kind (a dependency down) is logged
 * once per `logWindowMs` with a count of the rest.
 */
export function createErrorHandler<Code extends string>({
  logger,
  statusByCode,
  toBody,
  headersOf,
  logWindowMs = 10_000,
}: ErrorHandlerOptions<Code>): ErrorRequestHandler {
  const table = statusByCode as Readonly<Record<string, number>>
  const throttle = createLogThrottle({ windowMs: logWindowMs })
  return (error: unknown, req, res, _next) => {
    const httpError = (error ?? {}) as HttpLikeError
    const code = typeof httpError.code === 'string' ? httpError.code : undefined
    const mapped = code !== undefined && Object.hasOwn(table, code) ? table[code] : undefined
    const clientStatus = mapped === undefined ? httpStatusOf(httpError) : undefined
    const status = mapped ?? clientStatus ?? 500
    const known = mapped !== undefined || clientStatus !== undefined
    const message = known && httpError.message ? httpError.message : 'internal error'
    if (status >= 500) {
      const { method, path } = req
      const kind = code ?? (error instanceof Error ? `${error.name}: ${error.message}` : 'unknown')
      throttle(`${status} ${kind}`, (suppressed) =>
        suppressed === 0
          ? logger.error({ err: error, method, path }, 'request failed')
          : logger.error(
              { status, code: kind, suppressed, windowMs: logWindowMs },
              'request failed, repeatedly',
            ),
      )
    }
    if (error instanceof ServiceError) res.set(error.headers)
    if (headersOf) res.set(headersOf(error))
    const extra = error instanceof ServiceError ? error.extra : {}
    res.status(status).json(toBody ? toBody({ status, message, code, error }) : { error: message, ...extra })
  }
}
