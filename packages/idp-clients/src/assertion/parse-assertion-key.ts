import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto'

/**
 * A key the exchange signs its assertions with, and what its JWKS publishes of it (an `AssertionKey` of
 * `exchange-assertion.ts` too: Auth0's token-exchange sign-in takes it as it is).
 */
export interface PublishedAssertionKey {
  /** The JWK `kid`: the JWK's own, else its RFC 7638 thumbprint (so every replica derives the same). */
  kid: string
  /** `RS256` (RSA, 2048 bits or more) or `ES256` (P-256): what Keycloak and Auth0 verify. */
  alg: 'RS256' | 'ES256'
  privateKey: KeyObject
  /** The public JWK as `/.well-known/jwks.json` lists it (`kid`, `alg`, `use: sig`). */
  publicJwk: PublishedJwk
}

/**
 * A public key as a JWKS lists it: RSA (`n`, `e`) or EC P-256 (`crv`, `x`, `y`). Plain JSON of its own, not
 * Node's `JsonWebKey`, which the declarations bundler would import from the bare `crypto` module.
 */
export interface PublishedJwk {
  kty: string
  kid: string
  alg: string
  use: 'sig'
  n?: string
  e?: string
  crv?: string
  x?: string
  y?: string
}

/** RFC 7638: the SHA-256 of the required members, in lexicographic order, base64url. */
function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'RSA'
      ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
      : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url')
}

/**
 * A private key from a setting's text: a PEM (PKCS#8 or PKCS#1 / SEC1, `\n` written as two characters allowed,
 * as environment files hold one line) or a private JWK (JSON, its `kid` kept). Throws a `TypeError` saying what is
 * wrong (not a key, a public key, RSA under 2048 bits, a curve other than P-256), never the key itself.
 *
 * @example
 * const key = parseAssertionKey(env.EXCHANGE_SIGNING_KEY)
 */
export function parseAssertionKey(text: string): PublishedAssertionKey {
  const trimmed = text.trim()
  let privateKey: KeyObject
  let ownKid: string | undefined
  try {
    if (trimmed.startsWith('{')) {
      const jwk = JSON.parse(trimmed) as JsonWebKey & { kid?: unknown }
      if (typeof jwk.kid === 'string' && jwk.kid) ownKid = jwk.kid
      privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
    } else {
      privateKey = createPrivateKey(trimmed.replace(/\\n/g, '\n'))
    }
  } catch {
    throw new TypeError('not a private key (a PEM, or a private JWK as JSON)')
  }
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' })
  let alg: PublishedAssertionKey['alg']
  if (publicJwk.kty === 'RSA') {
    if ((privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
      throw new TypeError('an RSA key needs 2048 bits or more')
    alg = 'RS256'
  } else if (publicJwk.kty === 'EC' && publicJwk.crv === 'P-256') {
    alg = 'ES256'
  } else {
    throw new TypeError(
      `a ${publicJwk.kty}${publicJwk.crv ? ` ${publicJwk.crv}` : ''} key: use RSA (RS256) or EC P-256 (ES256)`,
    )
  }
  const kid = ownKid ?? thumbprint(publicJwk)
  const { kty = '', n, e, crv, x, y } = publicJwk
  return { kid, alg, privateKey, publicJwk: { kty, n, e, crv, x, y, kid, alg, use: 'sig' } }
}
