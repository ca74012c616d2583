import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'

/** The algorithms an exchange assertion may be signed with (what the vendors' verifiers take). */
export type AssertionAlgorithm = 'ES256' | 'RS256'

/** One signing key of the exchange: its `kid` as its JWKS publishes it, and the private key (PEM or KeyObject). */
export interface AssertionKey {
  kid: string
  privateKey: KeyObject | string
  /** Default: ES256 for a P-256 key, RS256 for an RSA key. */
  alg?: AssertionAlgorithm
}

/** How the exchange signs the assertions it presents in a password-less sign-in. */
export interface ExchangeAssertionOptions {
  /** `iss`: the exchange's own identifier (its public URL), as the provider's verifier expects it. */
  issuer: string
  /**
   * The key that signs now: a key, or a function answering the current one (a rotation moves from a current to a
   * next key, each published in the exchange's JWKS before it signs).
   */
  key: AssertionKey | (() => AssertionKey)
  /** `aud`; default the provider's issuer (Auth0: `https://{domain}/`). */
  audience?: string
  /** `exp - iat`, at most 300 (Keycloak's default maximum; the Auth0 Action's too). Default 120. */
  lifetimeSeconds?: number
}

/** Longest assertion lifetime accepted by the verifiers (RFC 7523 grant in Keycloak: 300 s by default). */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300

function algorithmOf(key: AssertionKey, privateKey: KeyObject): AssertionAlgorithm {
  if (key.alg) return key.alg
  if (privateKey.asymmetricKeyType === 'ec' && privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1')
    return 'ES256'
  if (privateKey.asymmetricKeyType === 'rsa') return 'RS256'
  throw new TypeError(`assertion key ${key.kid}: not a P-256 or RSA private key`)
}

/**
 * A signer of the exchange's assertions: a compact JWS with `iss`, `sub` (the marketplace userId), `aud`, `iat`
 * (now, never ahead), `exp` (`lifetimeSeconds` later) and a fresh `jti`, plus the claims the style adds (Auth0's
 * `auth0_user_id`). Misuse (no issuer, a lifetime beyond 300 s, a key of another type) throws `TypeError` at once.
 *
 * @example
 * const sign = createAssertionSigner({ issuer: 'https://exchange.example.com', key: { kid: 'k1', privateKey: pem } })
 * const assertion = sign({ sub: 'user-1', aud: 'https://acme.eu.auth0.com/' })
 */
export function createAssertionSigner({
  issuer,
  key,
  audience,
  lifetimeSeconds = 120,
}: ExchangeAssertionOptions) {
  if (!issuer) throw new TypeError('assertion: issuer is required')
  if (!(lifetimeSeconds > 0 && lifetimeSeconds <= MAX_ASSERTION_LIFETIME_SECONDS))
    throw new TypeError(`assertion: lifetimeSeconds must be within 1..${MAX_ASSERTION_LIFETIME_SECONDS}`)
  const prepared = new Map<AssertionKey, { privateKey: KeyObject; alg: AssertionAlgorithm }>()
  const current = () => {
    const chosen = typeof key === 'function' ? key() : key
    let entry = prepared.get(chosen)
    if (!entry) {
      const privateKey =
        typeof chosen.privateKey === 'string' ? createPrivateKey(chosen.privateKey) : chosen.privateKey
      entry = { privateKey, alg: algorithmOf(chosen, privateKey) }
      prepared.set(chosen, entry)
    }
    return { kid: chosen.kid, ...entry }
  }
  current() // a bad key fails at creation, not at the first sign-in
  return ({ sub, aud, claims = {} }: { sub: string; aud: string; claims?: Record<string, unknown> }) => {
    const { kid, privateKey, alg } = current()
    const iat = Math.floor(Date.now() / 1000)
    return jwt.sign(
      {
        ...claims,
        iss: issuer,
        sub,
        aud: audience ?? aud,
        iat,
        exp: iat + lifetimeSeconds,
        jti: randomUUID(),
      },
      privateKey,
      { algorithm: alg, keyid: kid },
    )
  }
}

export type AssertionSigner = ReturnType<typeof createAssertionSigner>
