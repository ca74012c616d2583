import { ServiceError } from './service-error'

/** One row of a service's error table: the status, alone or with what else the service keeps per code. */
export type ErrorRule = number | { readonly status: number }

/**
 * A service's one table from error code (its own and the library codes it expects, e.g. `@pf/signing`'s) to
 * its answer. A row may carry more than the status (the exchange's OAuth error, the receiver's metric label).
 */
export type ErrorTable<Code extends string = string> = Readonly<Record<Code, ErrorRule>>

export interface ErrorBodyInput {
  status: number
  message: string
  code: string | undefined
  error: unknown
}

export interface ErrorAnswerOptions {
  /** The JSON body for an error; default `{ error: message, ...extra }`. */
  toBody?: (input: ErrorBodyInput) => Record<string, unknown>
  /** Headers for an error beyond a `ServiceError`'s own (e.g. `Retry-After` read from a library error). */
  headersOf?: (error: unknown) => Record<string, string>
}

/** What to answer for an error: status, headers and JSON body. */
export interface ErrorAnswer {
  status: number
  /** The error's code when it has a string one, in the table or not. */
  code: string | undefined
  headers: Record<string, string>
  body: Record<string, unknown>
}

interface HttpLikeError {
  statusCode?: unknown
  status?: unknown
  message?: string
  code?: unknown
}

const clientStatusOf = (error: HttpLikeError): number | undefined => {
  const candidate = error.statusCode ?? error.status
  return typeof candidate === 'number' && candidate >= 400 && candidate < 500 ? candidate : undefined
}

/** The row of `table` for an error's code, if it has one. */
export function errorRuleOf<Rule extends ErrorRule>(
  error: unknown,
  table: Readonly<Record<string, Rule>>,
): Rule | undefined {
  const code = (error as HttpLikeError | null)?.code
  return typeof code === 'string' && Object.hasOwn(table, code) ? table[code] : undefined
}

/**
 * The answer to an error, from the service's one table, and nothing else (pure: no logging, no response). A
 * code in the table gives the status; other client errors that carry a 4xx `status` (body-parser's) keep it;
 * anything else is a 500 whose message is never sent ("internal error").
 *
 * @example
 * const { status, headers, body } = toErrorAnswer(error, RECEIVER_ERRORS)
 */
export function toErrorAnswer(
  error: unknown,
  table: ErrorTable,
  { toBody, headersOf }: ErrorAnswerOptions = {},
): ErrorAnswer {
  const httpError = (error ?? {}) as HttpLikeError
  const code = typeof httpError.code === 'string' ? httpError.code : undefined
  const rule = errorRuleOf(error, table)
  const mapped = typeof rule === 'number' ? rule : rule?.status
  const clientStatus = mapped === undefined ? clientStatusOf(httpError) : undefined
  const status = mapped ?? clientStatus ?? 500
  const known = mapped !== undefined || clientStatus !== undefined
  const message = known && httpError.message ? httpError.message : 'internal error'
  const service = error instanceof ServiceError ? error : undefined
  const headers = { ...service?.headers, ...headersOf?.(error) }
  const body = toBody ? toBody({ status, message, code, error }) : { error: message, ...service?.extra }
  return { status, code, headers, body }
}
