import { createHash, timingSafeEqual } from 'node:crypto'
import type { RequestHandler } from 'express'
import { ApiKeyError } from '../errors'

export const API_KEY_HEADER = 'X-PF-Api-Key'

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * Refuses requests whose `X-PF-Api-Key` is none of the configured keys (several during a rotation): 401
 * `{error}` (spec, "Authentication" 1). Both sides are hashed first so each comparison is constant-time
 * whatever the lengths, and every key is compared so the time does not say which one matched.
 */
export function requireApiKey(apiKeys: readonly string[]): RequestHandler {
  const expected = apiKeys.map(digest)
  return (req, _res, next) => {
    const received = req.get(API_KEY_HEADER)
    const hashed = received === undefined ? undefined : digest(received)
    const matches = hashed
      ? expected.reduce((found, key) => timingSafeEqual(hashed, key) || found, false)
      : false
    if (!matches) {
      next(new ApiKeyError(`invalid or missing ${API_KEY_HEADER} header`))
      return
    }
    next()
  }
}
