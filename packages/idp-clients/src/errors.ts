// One class per code (panva/jose's shape): callers branch on `instanceof` or on `code`, whose literal type each
// class narrows. The classes repeat one shape on purpose; a factory would hide the public types they are.
export type IdpErrorCode =
  | 'ERR_IDP_UNAVAILABLE'
  | 'ERR_IDP_REJECTED'
  | 'ERR_IDP_CONFLICT'
  | 'ERR_IDP_RATE_LIMITED'
  | 'ERR_IDP_INVALID_GRANT'
  | 'ERR_IDP_MISCONFIGURED'
  | 'ERR_IDP_ACCOUNT_CONFLICT'

/**
 * Base of every error from an identity provider call. Carries the provider's status, parsed body and response
 * headers; messages never contain passwords, secrets or tokens.
 */
export abstract class IdpError extends Error {
  abstract readonly code: IdpErrorCode
  readonly statusCode: number | undefined
  readonly body: unknown
  readonly headers: Record<string, string>
  constructor(
    message: string,
    {
      statusCode,
      body,
      headers = {},
      cause,
    }: { statusCode?: number; body?: unknown; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause })
    this.name = new.target.name
    this.statusCode = statusCode
    this.body = body
    this.headers = headers
  }
}

/** The provider could not be reached, or did not answer in time. */
export class IdpUnavailableError extends IdpError {
  readonly code = 'ERR_IDP_UNAVAILABLE'
}

/** The provider answered with a non-success status. */
export class IdpRejectedError extends IdpError {
  readonly code = 'ERR_IDP_REJECTED'
}

/** 409: the user (or its email) already exists. */
export class IdpConflictError extends IdpError {
  readonly code = 'ERR_IDP_CONFLICT'
}

/** 429, still after the bounded retries. */
export class IdpRateLimitedError extends IdpError {
  readonly code = 'ERR_IDP_RATE_LIMITED'
}

/** The password grant was refused (`invalid_grant`): the user or the password is not what the client expects. */
export class IdpInvalidGrantError extends IdpError {
  readonly code = 'ERR_IDP_INVALID_GRANT'
}

/** The provider is set up in a way the exchange cannot work with; the message says how to fix it. */
export class IdpMisconfiguredError extends IdpError {
  readonly code = 'ERR_IDP_MISCONFIGURED'
}

/**
 * The provider account that would serve this marketplace user belongs to someone else (linked to another
 * marketplace user), or may not be adopted under the configured policy. Nothing was changed on it.
 */
export class IdpAccountConflictError extends IdpError {
  readonly code = 'ERR_IDP_ACCOUNT_CONFLICT'
}

export type TokenErrorCode =
  'ERR_TOKEN_EXPIRED' | 'ERR_TOKEN_NOT_YET_VALID' | 'ERR_TOKEN_INVALID' | 'ERR_TOKEN_KEYS_UNAVAILABLE'

/**
 * Base of the errors `createTokenVerifier` rejects with: the JWT library's own errors never leave this
 * package, so callers branch on `code`, not on another library's class names.
 */
export abstract class TokenError extends Error {
  abstract readonly code: TokenErrorCode
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** `exp` is past (beyond the clock tolerance). */
export class TokenExpiredError extends TokenError {
  readonly code = 'ERR_TOKEN_EXPIRED'
}

/** `nbf` is still ahead (beyond the clock tolerance). */
export class TokenNotYetValidError extends TokenError {
  readonly code = 'ERR_TOKEN_NOT_YET_VALID'
}

/** Anything else: malformed, bad signature, unknown key, wrong algorithm, issuer or audience. */
export class TokenInvalidError extends TokenError {
  readonly code = 'ERR_TOKEN_INVALID'
}

/** The issuer's signing keys could not be fetched, and the token's key is not among those already known. */
export class TokenKeysUnavailableError extends TokenError {
  readonly code = 'ERR_TOKEN_KEYS_UNAVAILABLE'
}
