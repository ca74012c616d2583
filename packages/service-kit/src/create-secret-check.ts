import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * A check of a presented secret (API key, dashboard token) against the configured ones, several during a
 * rotation. Both sides are hashed first so each comparison is constant-time whatever the lengths, and every
 * secret is compared so the time does not say which one matched.
 *
 * @example
 * const isApiKey = createSecretCheck(config.apiKeys)
 * if (!isApiKey(req.get('X-PF-Api-Key'))) throw new ApiKeyError(…)
 */
export function createSecretCheck(secrets: readonly string[]): (presented: string | undefined) => boolean {
  const expected = secrets.map(digest)
  return (presented) => {
    if (presented === undefined) return false
    const hashed = digest(presented)
    return expected.reduce((found, secret) => timingSafeEqual(hashed, secret) || found, false)
  }
}
