import type { RequestHandler } from 'express'
import { API_KEY_HEADER } from '@pf/schemas'
import { createSecretCheck } from '@pf/service-kit'
import { ApiKeyError } from './errors'

/** Refuses requests whose `X-PF-Api-Key` is none of the configured keys: 401 `{error}` (spec, "Authentication" 1). */
export function requireApiKey(apiKeys: readonly string[]): RequestHandler {
  const isApiKey = createSecretCheck(apiKeys)
  return (req, _res, next) => {
    if (!isApiKey(req.get(API_KEY_HEADER))) {
      next(new ApiKeyError(`invalid or missing ${API_KEY_HEADER} header`))
      return
    }
    next()
  }
}
