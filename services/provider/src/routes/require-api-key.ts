import { createHash, timingSafeEqual } from 'node:crypto'
import type { RequestHandler } from 'express'
import { ApiKeyError } from '../errors'

export const API_KEY_HEADER = 'X-PF-Api-Key'

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * Refuses requests whose `X-PF-Api-Key` is not the configured key: 401 `{error}` (spec, "Authentication" 1).
 * Both sides are hashed first so the comparison is constant-time whatever the lengths.
 */
export function requireApiKey(apiKey: string): RequestHandler {
  const expected = digest(apiKey)
  return (req, _res, next) => {
    const received = req.get(API_KEY_HEADER)
    if (received === undefined || !timingSafeEqual(digest(received), expected)) {
      next(new ApiKeyError(`invalid or missing ${API_KEY_HEADER} header`))
      return
    }
    next()
  }
}
