import { JwksClient } from 'jwks-rsa'
import { TokenInvalidError, TokenKeysUnavailableError } from '../errors'

export interface JwksKeyStoreOptions {
  jwksUri: string
  /**
   * Least time between two fetches caused by unknown `kid`s (default 30 s, as jose's `createRemoteJWKSet`):
   * tokens with made-up `kid`s cost at most one fetch per cool-down, and never lock out a real rotation.
   */
  cooldownMs?: number
  /** Known keys are refetched after this long (default 10 min); if that fetch fails, they stay in use. */
  maxAgeMs?: number
  timeoutMs?: number
  now?: () => number
}

/**
 * The signing keys of one issuer, by `kid`: fetched whole (jwks-rsa's `getSigningKeys`), kept, and refetched
 * when stale or when a token names a `kid` not among them, at most once per cool-down whatever strangers
 * send. A fetch failure with no usable key is `TokenKeysUnavailableError` (the issuer's fault, not the token's).
 */
export function createJwksKeyStore({
  jwksUri,
  cooldownMs = 30_000,
  maxAgeMs = 10 * 60_000,
  timeoutMs = 5000,
  now = Date.now,
}: JwksKeyStoreOptions) {
  const client = new JwksClient({ jwksUri, cache: false, rateLimit: false, timeout: timeoutMs })
  let keys = new Map<string | undefined, string>()
  let fetchedAt = Number.NEGATIVE_INFINITY
  let lastAttempt = Number.NEGATIVE_INFINITY
  let lastFailure: unknown
  let pending: Promise<void> | undefined

  const refresh = () =>
    (pending ??= (async () => {
      lastAttempt = now()
      try {
        const fetched = await client.getSigningKeys()
        keys = new Map(fetched.map((key) => [key.kid, key.getPublicKey()]))
        fetchedAt = now()
        lastFailure = undefined
      } catch (error) {
        lastFailure = error
      }
    })().finally(() => {
      pending = undefined
    }))

  /** The PEM public key for a token's `kid` (a token without `kid` needs a JWKS of exactly one key). */
  return async function publicKeyFor(kid: string | undefined): Promise<string> {
    const find = () => (kid === undefined && keys.size === 1 ? [...keys.values()][0] : keys.get(kid))
    const stale = now() - fetchedAt >= maxAgeMs
    if ((stale || !find()) && now() - lastAttempt >= cooldownMs) await refresh()
    else if (pending) await pending
    const key = find()
    if (key) return key
    if (lastFailure !== undefined)
      throw new TokenKeysUnavailableError('signing keys unavailable', { cause: lastFailure })
    throw new TokenInvalidError(kid === undefined ? 'token has no kid' : 'unknown signing key')
  }
}
