import { createPublicKey, type KeyObject } from 'node:crypto'

/** What a JWKS fetch of an identity provider's keys did (for tests: count, don't time). */
export interface AssertionKeyFetch {
  alias: string
  url: string
  kids: string[]
}

interface Cached {
  keys: Map<string, KeyObject>
  fetchedAt: number
}

/**
 * The public keys of the JWT Authorization Grant providers, as Keycloak keeps them (PublicKeyStorageProvider,
 * InfinispanKeyStorageProvider): loaded from the provider's `jwksUrl` on first use and cached by `kid`; an unknown
 * `kid` reloads the set, but not sooner than `minTimeBetweenRequests` (10 s) after the last load, and a set older
 * than `maxCacheTime` (600 s) is loaded again (InfinispanKeyStorageProviderTest: 10 and 600). So a signer whose
 * new key was not yet in the set Keycloak loaded is refused for up to 10 s: the next key must be published first.
 */
export function createAssertionKeyStore({
  now,
  minTimeBetweenRequestsSec = 10,
  maxCacheTimeSec = 600,
}: {
  now: () => number
  minTimeBetweenRequestsSec?: number
  maxCacheTimeSec?: number
}) {
  const cache = new Map<string, Cached>()
  const fetches: AssertionKeyFetch[] = []

  async function load(alias: string, url: string): Promise<Cached> {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) })
    if (!res.ok) throw new Error(`JWKS answered ${res.status}`)
    const { keys = [] } = (await res.json()) as { keys?: (Record<string, unknown> & { kid?: string })[] }
    const loaded = new Map<string, KeyObject>()
    for (const jwk of keys) {
      if (typeof jwk.kid !== 'string' || jwk.use === 'enc') continue
      try {
        loaded.set(jwk.kid, createPublicKey({ key: jwk as never, format: 'jwk' }))
      } catch {
        // A key Keycloak cannot read is skipped (JWKSUtils.getKeyWrappersForUse logs and goes on).
      }
    }
    const entry = { keys: loaded, fetchedAt: now() }
    fetches.push({ alias, url, kids: [...loaded.keys()] })
    cache.set(alias, entry)
    return entry
  }

  return {
    /** The key `kid` of provider `alias`, loading its JWKS as Keycloak would; undefined when not found. */
    async key(alias: string, url: string, kid: string | undefined): Promise<KeyObject | undefined> {
      let entry = cache.get(alias)
      if (!entry || now() - entry.fetchedAt > maxCacheTimeSec * 1000) entry = await load(alias, url)
      const found = kid === undefined ? undefined : entry.keys.get(kid)
      if (found || now() - entry.fetchedAt < minTimeBetweenRequestsSec * 1000) return found
      return (await load(alias, url)).keys.get(kid ?? '')
    },
    /** Every JWKS load so far. */
    fetches: () => [...fetches],
  }
}

export type AssertionKeyStore = ReturnType<typeof createAssertionKeyStore>
