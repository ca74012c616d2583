import jwt from 'jsonwebtoken'
import { JwksClient } from 'jwks-rsa'
import { TokenExpiredError, TokenInvalidError, TokenNotYetValidError, type TokenError } from '../errors'
import type { AsymmetricAlgorithm, JwtClaims } from './jwt-claims'

/** jsonwebtoken's errors as this package's own, by class: the only place that knows that library. */
function asTokenError(error: unknown): TokenError {
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
}

/**
 * Verifies a JWT issued by an identity provider (or the marketplace) against its JWKS: signature by the key of
 * the token's `kid` (cached; an unknown `kid` refetches, rate-limited), issuer, audience when given, expiry.
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
}: TokenVerifierOptions) {
  const keys = new JwksClient({
    jwksUri,
    cache: true,
    cacheMaxAge: 10 * 60_000,
    rateLimit: true,
    jwksRequestsPerMinute: 10,
    timeout: 5000,
  })
  return (token: string): Promise<JwtClaims> =>
    new Promise((resolve, reject) => {
      jwt.verify(
        token,
        (header, callback) => {
          keys.getSigningKey(header.kid).then(
            (key) => callback(null, key.getPublicKey()),
            (error: Error) => callback(error),
          )
        },
        { algorithms, issuer, ...(audience ? { audience } : {}), clockTolerance: clockToleranceSec },
        (error, payload) =>
          error || !payload || typeof payload === 'string'
            ? reject(asTokenError(error))
            : resolve(payload as JwtClaims),
      )
    })
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>
