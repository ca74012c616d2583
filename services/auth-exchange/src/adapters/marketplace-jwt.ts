import {
  createTokenVerifier,
  TokenError,
  TokenKeysUnavailableError,
  type JwtClaims,
  type MarketplaceUser,
} from '@pf/idp-clients'
import { InvalidTokenError, MarketplaceUnavailableError } from '../errors'

export interface MarketplaceVerifierOptions {
  jwksUrl: string
  issuer: string
  applicationId: string
  clockToleranceSec: number
  /** Oldest `iat` accepted, when the token has one; undefined: no limit. */
  maxTokenAgeSec: number | undefined
  jwksCooldownMs: number
}

/** Longest claim value taken (identity-provider usernames and names stop at 255). */
const MAX_CLAIM_LENGTH = 255

const text = (payload: JwtClaims, name: string) => {
  const value = payload[name] as unknown
  if (typeof value !== 'string' || value.length === 0) return undefined
  if (value.length > MAX_CLAIM_LENGTH)
    throw new InvalidTokenError(
      `marketplace token claim ${name} is longer than ${MAX_CLAIM_LENGTH} characters`,
    )
  return value
}

/**
 * Verifies a marketplace JWT (spec, C: signature, issuer, applicationId, expiry) with jsonwebtoken and jwks-rsa:
 * asymmetric algorithms only (never `none`, never HMAC keyed with a public key), the key of its `kid` from the
 * JWKS (kept; unknown `kid`s refetch at most once per cool-down), `iss`, `exp` required, `exp`/`nbf` with a
 * small clock tolerance, `iat` (optional: the spec never names it) no older than `maxTokenAgeSec` when present,
 * then the `applicationId` claim. Reads `userId`, `orgId`, `applicationId`, the optional `email` and
 * `email_verified`, and the optional OpenID names `given_name`/`family_name`.
 * The issuer's keys out of reach is `MarketplaceUnavailableError` (503), not the caller's fault.
 */
export function createMarketplaceVerifier({
  jwksUrl,
  issuer,
  applicationId,
  clockToleranceSec,
  maxTokenAgeSec,
  jwksCooldownMs,
}: MarketplaceVerifierOptions) {
  const verify = createTokenVerifier({
    jwksUri: jwksUrl,
    issuer,
    clockToleranceSec,
    maxTokenAgeSec,
    jwksCooldownMs,
  })
  return async (token: string): Promise<MarketplaceUser> => {
    let payload: JwtClaims
    try {
      payload = await verify(token)
    } catch (error) {
      if (error instanceof TokenKeysUnavailableError)
        throw new MarketplaceUnavailableError("the marketplace's signing keys cannot be fetched")
      // TokenError's messages are its codes in words: "token expired", "token has no exp", "invalid token".
      const reason = error instanceof TokenError ? error.message : 'invalid token'
      throw new InvalidTokenError(`marketplace token rejected: ${reason}`)
    }
    if (payload.applicationId !== applicationId)
      throw new InvalidTokenError('marketplace token is for another application')
    const userId = text(payload, 'userId')
    const orgId = text(payload, 'orgId')
    if (!userId || !orgId) throw new InvalidTokenError('marketplace token lacks userId or orgId')
    return {
      userId,
      orgId,
      applicationId,
      email: text(payload, 'email') ?? null,
      // Only an explicit false counts: absent, the marketplace says nothing either way.
      emailVerified: payload.email_verified === false || payload.email_verified === 'false' ? false : null,
      firstName: text(payload, 'given_name') ?? null,
      lastName: text(payload, 'family_name') ?? null,
    }
  }
}

export type MarketplaceVerifier = ReturnType<typeof createMarketplaceVerifier>
