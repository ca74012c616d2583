import { randomBytes } from 'node:crypto'
import express, { type Request, type Response, type Router } from 'express'
import { problem } from './auth0-problem'

export interface Auth0Permission {
  permission_name: string
  resource_server_identifier: string
}

/** A refresh token the tenant issued, as the Management API describes it (the secret itself is the map key). */
export interface EmulatedRefreshToken {
  id: string
  userId: string
  clientId: string
  scope: string
  audience?: string
  sessionId?: string
  created_at: string
}

/** A session of the tenant's session layer (a browser login); the password grant opens none. */
export interface EmulatedAuth0Session {
  id: string
  user_id: string
  created_at: string
}

/** What the routes below read and change of the tenant. */
export interface Auth0AccessState {
  users: Map<
    string,
    {
      connection: string
      authenticationMethods: { id: string; type: string; confirmed: boolean; created_at: string }[]
      organizations: string[]
      permissions: Auth0Permission[]
      roles: Set<string>
    }
  >
  refreshTokens: Map<string, EmulatedRefreshToken>
  sessions: Map<string, EmulatedAuth0Session>
  roles: { id: string; name: string; permissions?: Auth0Permission[] }[]
  organizations: Map<string, { id: string; name: string; display_name: string }>
  isDatabase(connection: string): boolean
  /** The Enterprise plan's session and refresh-token endpoints. */
  sessionEndpoints(): boolean
}

/**
 * The Management API v2 calls about what a user can still do besides its password (each needs its scope, else
 * 403 `insufficient_scope`):
 * - `GET`/`DELETE /users/{id}/sessions` and `/users/{id}/refresh-tokens` (read:/delete:sessions,
 *   read:/delete:refresh_tokens): Enterprise plans only (auth0.com/docs/manage-users/sessions/manage-user-sessions-with-auth0-management-api,
 *   auth0.com/docs/secure/tokens/manage-refresh-tokens-with-auth0-management-api); the deletes answer 202.
 *   Deleting the sessions leaves the refresh tokens, which outlive sessions (same pages).
 * - `GET /device-credentials?user_id=&type=refresh_token` and `DELETE /device-credentials/{id}`
 *   (read:/delete:device_credentials): the refresh-token revocation of every plan
 *   (auth0.com/docs/secure/tokens/refresh-tokens/revoke-refresh-tokens).
 * - `GET /users/{id}/authentication-methods` (read:authentication_methods), `/users/{id}/organizations`
 *   (read:organizations), `/users/{id}/permissions` (read:users), `/roles/{id}/permissions` (read:roles):
 *   offset pages, a plain array unless `include_totals=true` (the shapes of the `auth0` SDK's types).
 */
export function createAuth0UserAccessRouter(state: Auth0AccessState): Router {
  const router = express.Router()
  const scoped =
    (scope: string, handle: (req: Request, res: Response) => void) => (req: Request, res: Response) => {
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
  const withUser =
    (
      handle: (
        user: NonNullable<ReturnType<Auth0AccessState['users']['get']>>,
        id: string,
        req: Request,
        res: Response,
      ) => void,
    ) =>
    (req: Request, res: Response) => {
      const id = String(req.params.id)
      const user = state.users.get(id)
      if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
      handle(user, id, req, res)
    }
  // (unconfirmed) The answer of a tenant whose plan lacks the endpoint.
  const planOnly = (handle: (req: Request, res: Response) => void) => (req: Request, res: Response) =>
    state.sessionEndpoints()
      ? handle(req, res)
      : problem(
          res,
          403,
          'Forbidden',
          'This feature is not enabled for this tenant.',
          'operation_not_supported',
        )
  const offsetPage = (req: Request, res: Response, items: unknown[], key: string) => {
    const page = Number(req.query.page ?? 0) || 0
    const perPage = Math.min(Number(req.query.per_page ?? 50) || 50, 100)
    const slice = items.slice(page * perPage, (page + 1) * perPage)
    res.json(
      req.query.include_totals === 'true'
        ? { start: page * perPage, limit: perPage, total: items.length, [key]: slice }
        : slice,
    )
  }
  const tokensOf = (userId: string) => [...state.refreshTokens].filter(([, t]) => t.userId === userId)

  router.get(
    '/users/:id/sessions',
    scoped(
      'read:sessions',
      planOnly(
        withUser((_user, id, _req, res) => {
          res.json({ sessions: [...state.sessions.values()].filter((s) => s.user_id === id) })
        }),
      ),
    ),
  )
  router.delete(
    '/users/:id/sessions',
    scoped(
      'delete:sessions',
      planOnly(
        withUser((_user, id, _req, res) => {
          for (const [sid, session] of state.sessions) if (session.user_id === id) state.sessions.delete(sid)
          res.status(202).end()
        }),
      ),
    ),
  )
  router.get(
    '/users/:id/refresh-tokens',
    scoped(
      'read:refresh_tokens',
      planOnly(
        withUser((_user, id, _req, res) => {
          res.json({
            tokens: tokensOf(id).map(([, t]) => ({
              id: t.id,
              user_id: t.userId,
              client_id: t.clientId,
              created_at: t.created_at,
              ...(t.sessionId ? { session_id: t.sessionId } : {}),
              rotating: false,
              resource_servers: t.audience ? [{ audience: t.audience, scopes: t.scope }] : [],
            })),
          })
        }),
      ),
    ),
  )
  router.delete(
    '/users/:id/refresh-tokens',
    scoped(
      'delete:refresh_tokens',
      planOnly(
        withUser((_user, id, _req, res) => {
          for (const [secret] of tokensOf(id)) state.refreshTokens.delete(secret)
          res.status(202).end()
        }),
      ),
    ),
  )

  router.get(
    '/device-credentials',
    scoped('read:device_credentials', (req, res) => {
      const { user_id: userId, client_id: clientId, type } = req.query as Record<string, string | undefined>
      const credentials = [...state.refreshTokens.values()]
        .filter(
          (t) =>
            (userId === undefined || t.userId === userId) &&
            (clientId === undefined || t.clientId === clientId),
        )
        .filter(() => type === undefined || type === 'refresh_token')
        .map((t) => ({
          id: t.id,
          device_name: '',
          device_id: '',
          type: 'refresh_token',
          user_id: t.userId,
          client_id: t.clientId,
        }))
      offsetPage(req, res, credentials, 'device_credentials')
    }),
  )
  router.delete(
    '/device-credentials/:id',
    scoped('delete:device_credentials', (req, res) => {
      const found = [...state.refreshTokens].find(([, t]) => t.id === req.params.id)
      if (!found)
        return problem(
          res,
          404,
          'Not Found',
          'The device credential does not exist.',
          'inexistent_device_credential',
        )
      state.refreshTokens.delete(found[0])
      res.status(204).end()
    }),
  )

  router.get(
    '/users/:id/authentication-methods',
    scoped(
      'read:authentication_methods',
      withUser((user, id, req, res) => {
        // (unconfirmed) A database user lists its password among its methods.
        const password = state.isDatabase(user.connection)
          ? [
              {
                id: `password|${id.split('|')[1] ?? id}`,
                type: 'password',
                confirmed: true,
                created_at: new Date(0).toISOString(),
              },
            ]
          : []
        offsetPage(req, res, [...password, ...user.authenticationMethods], 'authenticators')
      }),
    ),
  )
  router.get(
    '/users/:id/organizations',
    scoped(
      'read:organizations',
      withUser((user, _id, req, res) => {
        offsetPage(
          req,
          res,
          user.organizations.map((org) => state.organizations.get(org)).filter(Boolean),
          'organizations',
        )
      }),
    ),
  )
  // (unconfirmed) Direct permissions and those of the user's roles, each saying where it comes from.
  router.get(
    '/users/:id/permissions',
    scoped(
      'read:users',
      withUser((user, _id, req, res) => {
        const viaRoles = state.roles
          .filter((role) => user.roles.has(role.id))
          .flatMap((role) =>
            (role.permissions ?? []).map((p) => ({
              ...p,
              sources: [{ source_id: role.id, source_name: role.name, source_type: 'ROLE' }],
            })),
          )
        const direct = user.permissions.map((p) => ({
          ...p,
          sources: [{ source_id: '', source_name: '', source_type: 'DIRECT' }],
        }))
        offsetPage(req, res, [...direct, ...viaRoles], 'permissions')
      }),
    ),
  )
  router.get(
    '/roles/:id/permissions',
    scoped('read:roles', (req, res) => {
      const role = state.roles.find((r) => r.id === req.params.id)
      if (!role) return problem(res, 404, 'Not Found', 'The role does not exist.', 'inexistent_role')
      offsetPage(req, res, role.permissions ?? [], 'permissions')
    }),
  )
  return router
}

/** A new refresh-token or session id in the tenant's style. */
export const credentialId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`
