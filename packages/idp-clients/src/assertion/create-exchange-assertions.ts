import { createAssertionSigner } from './exchange-assertion'
import type { PublishedAssertionKey } from './parse-assertion-key'

/**
 * How far back `iat` is set: Keycloak allows no clock skew by default and refuses an `iat` in its future
 * (AbstractBaseJWTValidator.validateTokenActive, "Token was issued in the future"), so a clock a little ahead of
 * the server's must not make the assertion new-born in its future.
 */
export const ASSERTION_IAT_BACKDATE_SEC = 5

export interface ExchangeAssertionsOptions {
  /** `iss`: the exchange, as the identity provider's configuration names it. */
  issuer: string
  /** The key that signs. */
  current: PublishedAssertionKey
  /** The key that signs after the next rotation: published now, so every verifier holds it before it signs. */
  next: PublishedAssertionKey
  /** `exp - now`, in seconds: within the provider's maximum (Keycloak's default: 300). */
  lifetimeSec: number
  /** For tests: the clock (epoch milliseconds). */
  now?: () => number
}

/**
 * The exchange's assertions for Keycloak's JWT Authorization Grant (RFC 7523 section 3), with the keys it
 * publishes: `createAssertionSigner` (the one signer, Auth0's token exchange uses it too) with the current key,
 * `iat` set back `ASSERTION_IAT_BACKDATE_SEC` because Keycloak allows no clock skew, one `jti` each (Keycloak spends
 * it: a reused one is refused), `exp` `lifetimeSec` ahead. `jwks()` publishes the current and the next key, so
 * rotating (the next becomes current, a new next) never signs with a key a verifier has not loaded.
 *
 * @example
 * const signer = createExchangeAssertions({ issuer: 'https://exchange.example.com', current, next, lifetimeSec: 60 })
 * signer.sign({ sub: user.userId, aud: realmIssuer })
 */
export function createExchangeAssertions({
  issuer,
  current,
  next,
  lifetimeSec,
  now = Date.now,
}: ExchangeAssertionsOptions) {
  const sign = createAssertionSigner({
    issuer,
    key: current,
    lifetimeSeconds: lifetimeSec,
    iatOffsetSeconds: ASSERTION_IAT_BACKDATE_SEC,
    now,
  })
  return {
    issuer,
    lifetimeSec,
    /** A fresh assertion for `sub`, addressed to `aud`; `claims` adds others (never `iss`, `iat`, `exp`, `jti`). */
    sign: (request: { sub: string; aud: string; claims?: Record<string, unknown> }): string => sign(request),
    /** `/.well-known/jwks.json`: the current key, then the next. */
    jwks: () => ({ keys: [current.publicJwk, next.publicJwk] }),
  }
}

export type ExchangeAssertions = ReturnType<typeof createExchangeAssertions>
