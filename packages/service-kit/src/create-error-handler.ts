import type { ErrorRequestHandler } from 'express'
import type { Logger } from './create-logger'
import { createServerErrorLog } from './create-server-error-log'
import { toErrorAnswer, type ErrorAnswerOptions, type ErrorTable } from './to-error-answer'

export interface ErrorHandlerOptions<Code extends string> extends ErrorAnswerOptions {
  logger: Logger
  /**
   * The service's one table from error code to its answer (`toErrorAnswer`): its own codes and the library codes
   * it expects (e.g. `@pf/signing`'s). An error whose code is in the table is answered with that status and its
   * message.
   */
  table: ErrorTable<Code>
  /** Server errors of one kind are logged once per window, then as one line with a count. Default 10 s. */
  logWindowMs?: number
}

/**
 * The one error handler of a service's Express app: `toErrorAnswer` for the answer, `createServerErrorLog` for
 * the log (server errors only, a run of one kind once per `logWindowMs` with a count of the rest).
 */
export function createErrorHandler<Code extends string>({
  logger,
  table,
  toBody,
  headersOf,
  logWindowMs = 10_000,
}: ErrorHandlerOptions<Code>): ErrorRequestHandler {
  const logServerError = createServerErrorLog({ logger, windowMs: logWindowMs })
  return (error: unknown, req, res, _next) => {
    const answer = toErrorAnswer(error, table, { toBody, headersOf })
    logServerError(error, answer, req)
    res.set(answer.headers)
    res.status(answer.status).json(answer.body)
  }
}
