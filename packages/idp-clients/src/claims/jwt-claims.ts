/**
 * The payload of a verified JWT: the registered claims (RFC 7519 section 4.1) plus any others. Our own type,
 * so that a consumer's type check never needs `@types/jsonwebtoken`.
 */
export interface JwtClaims {
  iss?: string
  sub?: string
  aud?: string | string[]
  exp?: number
  nbf?: number
  iat?: number
  jti?: string
  [claim: string]: unknown
}

/** The asymmetric JWS algorithms a verifier may accept: never `none`, never HMAC keyed with a public key. */
export type AsymmetricAlgorithm =
  'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512'
