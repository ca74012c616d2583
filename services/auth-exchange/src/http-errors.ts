import { IdpError, type IdpErrorCode } from '@pf/idp-clients'
import { errorRuleOf, type ErrorBodyInput } from '@pf/service-kit'
import type { ExchangeErrorCode } from './errors'

interface HttpAnswer {
  status: number
  /** The OAuth 2.0 / RFC 6750 `error` of the `{error, error_description}` body (service contract). */
  oauthError: string
}

const refused: HttpAnswer = { status: 502, oauthError: 'idp_error' }
const unavailable: HttpAnswer = { status: 503, oauthError: 'idp_unavailable' }

/**
 * The exchange's one table from error code to answer (`toErrorAnswer`), and to the outcome label of its metric:
 * its own codes and @pf/idp-clients' (used as they are, not renamed). The provider down or overloaded is 503;
 * any other refusal 502.
 */
export const EXCHANGE_ERRORS: Readonly<Record<ExchangeErrorCode | IdpErrorCode, HttpAnswer>> = {
  ERR_INVALID_TOKEN: { status: 401, oauthError: 'invalid_token' },
  ERR_INVALID_REQUEST: { status: 400, oauthError: 'invalid_request' },
  ERR_MARKETPLACE_UNAVAILABLE: { status: 503, oauthError: 'temporarily_unavailable' },
  ERR_IDP_ACCOUNT_CONFLICT: { status: 409, oauthError: 'account_conflict' },
  ERR_IDP_UNAVAILABLE: unavailable,
  ERR_IDP_RATE_LIMITED: unavailable,
  ERR_IDP_REJECTED: refused,
  ERR_IDP_CONFLICT: refused,
  ERR_IDP_INVALID_GRANT: refused,
  ERR_IDP_MISCONFIGURED: refused,
}

/** Errors of Express itself and body-parser, which carry only a status. */
const OAUTH_ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'invalid_token',
  404: 'not_found',
  413: 'invalid_request',
}

const answerOf = (code: string | undefined): HttpAnswer | undefined => errorRuleOf({ code }, EXCHANGE_ERRORS)

/** The `outcome` label of the exchange metric for a failure. */
export const outcomeOf = (error: unknown): string =>
  answerOf((error as { code?: string } | null)?.code)?.oauthError ?? 'error'

/** `{error, error_description}`; an identity-provider failure says which side failed. */
export function toOAuthBody({ status, message, code, error }: ErrorBodyInput) {
  const answer = answerOf(code)
  const description =
    error instanceof IdpError && error.code !== 'ERR_IDP_ACCOUNT_CONFLICT'
      ? `identity provider ${answer === unavailable ? 'unavailable' : 'refused'}: ${message}`
      : message
  return {
    error: answer?.oauthError ?? OAUTH_ERROR_BY_STATUS[status] ?? 'server_error',
    error_description: description,
  }
}

/** `Retry-After` on a 503: the provider's own, else 5 seconds. */
export function retryAfterOf(error: unknown): Record<string, string> {
  if (answerOf((error as { code?: string } | null)?.code)?.status === 503 && !(error instanceof IdpError))
    return { 'Retry-After': '5' }
  if (!(error instanceof IdpError) || answerOf(error.code) !== unavailable) return {}
  const retryAfter = Number(error.headers['retry-after'])
  return { 'Retry-After': String(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 5) }
}
