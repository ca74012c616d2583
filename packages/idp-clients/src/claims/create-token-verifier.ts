import jwt from 'jsonwebtoken'
import { TokenError, TokenExpiredError, TokenInvalidError, TokenNotYetValidError } from '../errors'
import { createJwksKeyStore } from './create-jwks-key-store'
import type { AsymmetricAlgorithm, JwtClaims } from './jwt-claims'

/** jsonwebtoken's errors as this package's own, by class: the only place that knows that library. */
function asTokenError(error: unknown): TokenError {
  if (error instanceof TokenError) return error
  if (error instanceof jwt.TokenExpiredError) return new TokenExpiredError('token expired', { cause: error })
  if (error instanceof jwt.NotBeforeError)
    return new TokenNotYetValidError('token not yet valid', { cause: error })
  return new TokenInvalidError('invalid token', { cause: error })
}

export interface TokenVerifierOptions {
  jwksUri: string
  issuer: string
  audience?: string
  /** Asymmetric algorithms only: never `none`, never HMAC with a public key. */
  algorithms?: AsymmetricAlgorithm[]
  clockToleranceSec?: number
  /** Refuse tokens without `exp` (default true: a token that never expires is a key to the house). */
  requireExp?: boolean
  /** Refuse tokens whose `iat` is older than this; a token without `iat` is judged by `exp` alone. Unset: no limit. */
  maxTokenAgeSec?: number
  /** See `createJwksKeyStore` (default 30 s). */
  jwksCooldownMs?: number
}

/**
 * Verifies a JWT issued by an identity provider (or the marketplace) against its JWKS: signature by the key of
 * the token's `kid` (cached; an unknown `kid` refetches at most once per cool-down), issuer, audience when
 * given, `exp` present and not past, `iat` (when present) within `maxTokenAgeSec` when set. Rejects with `TokenError`s only;
 * `TokenKeysUnavailableError` when the issuer's keys cannot be fetched.
 *
 * @example
 * const verify = createTokenVerifier({ jwksUri: realm.jwksUri, issuer: realm.issuer })
 * const claims = normalizeRealmClaims(await verify(accessToken))
 */
export function createTokenVerifier({
  jwksUri,
  issuer,
  audience,
  algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384'],
  clockToleranceSec = 30,
  requireExp = true,
  maxTokenAgeSec,
  jwksCooldownMs,
}: TokenVerifierOptions) {
  const publicKeyFor = createJwksKeyStore({ jwksUri, cooldownMs: jwksCooldownMs })
  const verify = (token: string): Promise<JwtClaims> =>
    new Promise((resolve, reject) => {
      // jsonwebtoken wraps a key callback's error in its own: keep ours to reject with.
      let keyError: unknown
      jwt.verify(
        token,
        (header, callback) => {
          publicKeyFor(header.kid).then(
            (key) => callback(null, key),
            (error: Error) => {
              keyError = error
              callback(error)
            },
          )
        },
        {
          algorithms,
          issuer,
          ...(audience ? { audience } : {}),
          clockTolerance: clockToleranceSec,
        },
        (error, payload) =>
          error || !payload || typeof payload === 'string'
            ? reject(asTokenError(keyError ?? error))
            : resolve(payload as JwtClaims),
      )
    })
  return async (token: string): Promise<JwtClaims> => {
    const claims = await verify(token)
    if (requireExp && typeof claims.exp !== 'number') throw new TokenInvalidError('token has no exp')
    // jsonwebtoken's maxAge refuses tokens without iat, which no spec requires: the age is checked here, when
    // iat is there, with the clock tolerance, as jsonwebtoken would.
    const age = typeof claims.iat === 'number' ? Math.floor(Date.now() / 1000) - claims.iat : undefined
    if (maxTokenAgeSec !== undefined && age !== undefined && age > maxTokenAgeSec + clockToleranceSec)
      throw new TokenExpiredError('token too old (iat)')
    return claims
  }
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>
