import { createTokenVerifier, TokenError, type JwtClaims, type MarketplaceUser } from '@pf/idp-clients'
import { InvalidTokenError } from '../errors'

export interface MarketplaceVerifierOptions {
  jwksUrl: string
  issuer: string
  applicationId: string
  clockToleranceSec: number
}

const text = (payload: JwtClaims, name: string) => {
  const value = payload[name] as unknown
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

/**
 * Verifies a marketplace JWT (spec, C: signature, issuer, applicationId, expiry) with jsonwebtoken and jwks-rsa:
 * asymmetric algorithms only (never `none`, never HMAC keyed with a public key), keys by `kid` from the JWKS
 * (cached; a new `kid` refetches, rate-limited), `iss`, `exp`/`nbf` with a small clock tolerance, then the
 * `applicationId` claim. Reads `userId`, `orgId`, `applicationId` and the optional `email`.
 */
export function createMarketplaceVerifier({
  jwksUrl,
  issuer,
  applicationId,
  clockToleranceSec,
}: MarketplaceVerifierOptions) {
  const verify = createTokenVerifier({ jwksUri: jwksUrl, issuer, clockToleranceSec })
  return async (token: string): Promise<MarketplaceUser> => {
    let payload: JwtClaims
    try {
      payload = await verify(token)
    } catch (error) {
      // TokenError's messages are its codes in words: "token expired", "token not yet valid", "invalid token".
      const reason = error instanceof TokenError ? error.message : 'invalid token'
      throw new InvalidTokenError(`marketplace token rejected: ${reason}`)
    }
    if (payload.applicationId !== applicationId)
      throw new InvalidTokenError('marketplace token is for another application')
    const userId = text(payload, 'userId')
    const orgId = text(payload, 'orgId')
    if (!userId || !orgId) throw new InvalidTokenError('marketplace token lacks userId or orgId')
    return { userId, orgId, applicationId, email: text(payload, 'email') ?? null }
  }
}

export type MarketplaceVerifier = ReturnType<typeof createMarketplaceVerifier>
