import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JwtClaims } from './jwt-claims'
import type { NormalizedClaims } from './normalize-claims'

export interface RequireIdpTokenOptions {
  verify: (token: string) => Promise<JwtClaims>
  normalize: (claims: JwtClaims) => NormalizedClaims
  /** Roles the caller must all have. */
  roles?: string[]
}

/**
 * Express middleware for application routes that take an identity-provider access token as a Bearer token:
 * verifies it, normalises its claims onto `req.idpClaims`, and answers 401 (or 403 for missing roles) in the
 * RFC 6750 style otherwise.
 *
 * @example
 * app.get('/api/me', requireIdpToken({ verify, normalize: normalizeRealmClaims }), (req, res) => res.json(req.idpClaims))
 */
export function requireIdpToken({ verify, normalize, roles = [] }: RequireIdpTokenOptions) {
  const refuse = (res: ServerResponse, status: number, error: string, description: string) => {
    res.statusCode = status
    res.setHeader('WWW-Authenticate', `Bearer error="${error}", error_description="${description}"`)
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ error, error_description: description }))
  }
  return (
    req: IncomingMessage & { idpClaims?: NormalizedClaims },
    res: ServerResponse,
    next: (error?: unknown) => void,
  ) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!match?.[1]) return refuse(res, 401, 'invalid_token', 'missing bearer token')
    verify(match[1]).then(
      (payload) => {
        const claims = normalize(payload)
        if (!roles.every((role) => claims.roles.includes(role)))
          return refuse(res, 403, 'insufficient_scope', 'missing role')
        req.idpClaims = claims
        next()
      },
      () => refuse(res, 401, 'invalid_token', 'token is invalid or expired'),
    )
  }
}
