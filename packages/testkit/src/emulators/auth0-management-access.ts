import type { NextFunction, Request, Response } from 'express'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedAuth0User } from './auth0-tenant-state'

type Handler = (req: Request, res: Response) => void

/** Management API v2: a management token (audience `https://{domain}/api/v2/`) is required; its scopes are kept. */
export const requireManagementToken =
  (state: Auth0TenantState) => (req: Request, res: Response, next: NextFunction) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
    const claims = token ? state.key.verify(token) : null
    if (!claims || claims.aud !== state.managementAudience)
      return problem(res, 401, 'Unauthorized', 'Invalid token', 'invalid_token')
    res.locals.scopes = new Set(String(claims.scope ?? '').split(' '))
    next()
  }

/** The call needs `scope` in the management token's grant, else 403 `insufficient_scope`. */
export const scoped = (scope: string, handle: Handler) => (req: Request, res: Response) => {
  const granted = (res.locals.scopes as Set<string> | undefined) ?? new Set()
  if (!granted.has(scope))
    return problem(
      res,
      403,
      'Forbidden',
      `Insufficient scope, expected any of: ${scope}`,
      'insufficient_scope',
    )
  handle(req, res)
}

/** The user of `:id`, else 404 `inexistent_user`. */
export const withUser =
  (
    users: Map<string, EmulatedAuth0User>,
    handle: (user: EmulatedAuth0User, id: string, req: Request, res: Response) => void,
  ) =>
  (req: Request, res: Response) => {
    const id = String(req.params.id)
    const user = users.get(id)
    if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
    handle(user, id, req, res)
  }

/** An endpoint of the Enterprise plan: (unconfirmed) the answer of a tenant whose plan lacks it. */
export const planOnly = (state: Auth0TenantState, handle: Handler) => (req: Request, res: Response) =>
  state.sessionEndpoints()
    ? handle(req, res)
    : problem(
        res,
        403,
        'Forbidden',
        'This feature is not enabled for this tenant.',
        'operation_not_supported',
      )

/** An offset page (`page`, `per_page` up to 100): a plain array unless `include_totals=true`. */
export function offsetPage(req: Request, res: Response, items: unknown[], key: string): void {
  const page = Number(req.query.page ?? 0) || 0
  const perPage = Math.min(Number(req.query.per_page ?? 50) || 50, 100)
  const slice = items.slice(page * perPage, (page + 1) * perPage)
  res.json(
    req.query.include_totals === 'true'
      ? { start: page * perPage, limit: perPage, total: items.length, [key]: slice }
      : slice,
  )
}
