import type { ErrorRequestHandler } from 'express'
import type { Logger } from 'pino'
import { ServiceError } from './service-error'

interface HttpLikeError {
  statusCode?: number
  status?: number
  expose?: boolean
  message?: string
  code?: string
  type?: string
}

export interface ErrorBodyInput {
  status: number
  message: string
  error: unknown
}

export interface ErrorHandlerOptions {
  logger: Logger
  /** The JSON body for an error; default `{ error: message, ...extra }`. */
  toBody?: (input: ErrorBodyInput) => Record<string, unknown>
}

/**
 * The one error handler of a service. Any error carrying `statusCode`/`status` (ours, @pf/signing's,
 * body-parser's) is answered with it; anything else is a 500 whose details are logged, never sent.
 */
export function createErrorHandler({ logger, toBody }: ErrorHandlerOptions): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const httpError = (error ?? {}) as HttpLikeError
    const candidate = httpError.statusCode ?? httpError.status
    const status = typeof candidate === 'number' && candidate >= 400 && candidate < 600 ? candidate : 500
    const known = error instanceof ServiceError || (typeof candidate === 'number' && status < 500)
    const message = known && httpError.message ? httpError.message : 'internal error'
    if (status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'request failed')
    if (error instanceof ServiceError) res.set(error.headers)
    const extra = error instanceof ServiceError ? error.extra : {}
    res.status(status).json(toBody ? toBody({ status, message, error }) : { error: message, ...extra })
  }
}
