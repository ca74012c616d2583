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
  /** `exp - now`, at most 300 (Keycloak's default maximum; the Auth0 Action's too). Default 120. */
  lifetimeSeconds?: number
  /**
   * How many seconds `iat` is set back from now (default 0; at most 60): Keycloak allows no clock skew and refuses
   * an `iat` in its future, so its grant sets it back (`ASSERTION_IAT_BACKDATE_SEC`); `exp` stays `lifetimeSeconds`
   * from now either way.
   */
  iatOffsetSeconds?: number
  /** For tests: the clock (epoch milliseconds). */
  now?: () => number
}

/** Longest `iatOffsetSeconds`: an assertion set back further would look stale to a verifier that bounds its age. */
const MAX_IAT_OFFSET_SECONDS = 60

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
 * The one signer of the exchange's assertions, for both password-less grants (Keycloak's JWT Authorization Grant
 * through `createExchangeAssertions`, Auth0's Custom Token Exchange): a compact JWS with `iss`, `sub` (the
 * marketplace userId), `aud`, `iat` (now, or `iatOffsetSeconds` back; never ahead), `exp` (`lifetimeSeconds` from
 * now) and a fresh `jti`, plus the claims the style adds (Auth0's `auth0_user_id`). Misuse (no issuer, a lifetime
 * beyond 300 s, an offset beyond 60 s, a key of another type) throws `TypeError` at once.
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
  iatOffsetSeconds = 0,
  now = Date.now,
}: ExchangeAssertionOptions) {
  if (!issuer) throw new TypeError('assertion: issuer is required')
  if (!(lifetimeSeconds > 0 && lifetimeSeconds <= MAX_ASSERTION_LIFETIME_SECONDS))
    throw new TypeError(`assertion: lifetimeSeconds must be within 1..${MAX_ASSERTION_LIFETIME_SECONDS}`)
  if (!(
    Number.isInteger(iatOffsetSeconds) &&
    iatOffsetSeconds >= 0 &&
    iatOffsetSeconds <= MAX_IAT_OFFSET_SECONDS
  ))
    throw new TypeError(`assertion: iatOffsetSeconds must be within 0..${MAX_IAT_OFFSET_SECONDS}`)
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
    const seconds = Math.floor(now() / 1000)
    return jwt.sign(
      {
        ...claims,
        iss: issuer,
        sub,
        aud: audience ?? aud,
        iat: seconds - iatOffsetSeconds,
        exp: seconds + lifetimeSeconds,
        jti: randomUUID(),
      },
      privateKey,
      { algorithm: alg, keyid: kid, header: { alg, typ: 'JWT' } },
    )
  }
}

export type AssertionSigner = ReturnType<typeof createAssertionSigner>
