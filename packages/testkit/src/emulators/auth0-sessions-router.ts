import express, { type Request, type Response, type Router } from 'express'
import { offsetPage, planOnly, scoped, withUser } from './auth0-management-access'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedRefreshToken } from './auth0-tenant-state'

/** A refresh token as `GET /users/{id}/refresh-tokens` lists it. */
const refreshTokenView = (t: EmulatedRefreshToken) => ({
  id: t.id,
  user_id: t.userId,
  client_id: t.clientId,
  created_at: t.created_at,
  ...(t.sessionId ? { session_id: t.sessionId } : {}),
  rotating: false,
  resource_servers: t.audience ? [{ audience: t.audience, scopes: t.scope }] : [],
})

/** `GET /device-credentials?user_id=&client_id=&type=`: refresh tokens are the only type modelled. */
function listDeviceCredentials(state: Auth0TenantState, req: Request, res: Response) {
  const { user_id: userId, client_id: clientId, type } = req.query as Record<string, string | undefined>
  const credentials = [...state.refreshTokens.values()]
    .filter(
      (t) =>
        (userId === undefined || t.userId === userId) && (clientId === undefined || t.clientId === clientId),
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
}

/**
 * The Management API v2 calls that end what a user can still do with earlier sign-ins (each needs its scope,
 * else 403 `insufficient_scope`):
 * - `GET`/`DELETE /users/{id}/sessions` and `/users/{id}/refresh-tokens` (read:/delete:sessions,
 *   read:/delete:refresh_tokens): Enterprise plans only (auth0.com/docs/manage-users/sessions/manage-user-sessions-with-auth0-management-api,
 *   auth0.com/docs/secure/tokens/manage-refresh-tokens-with-auth0-management-api); the deletes answer 202.
 *   Deleting the sessions leaves the refresh tokens, which outlive sessions (same pages).
 * - `GET /device-credentials?user_id=&type=refresh_token` and `DELETE /device-credentials/{id}`
 *   (read:/delete:device_credentials): the refresh-token revocation of every plan
 *   (auth0.com/docs/secure/tokens/refresh-tokens/revoke-refresh-tokens).
 */
export function createAuth0SessionsRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  const tokensOf = (userId: string) => [...state.refreshTokens].filter(([, t]) => t.userId === userId)
  const perUser = (scope: string, handle: (id: string, res: Response) => void) =>
    scoped(
      scope,
      planOnly(
        state,
        withUser(state.users, (_user, id, _req, res) => handle(id, res)),
      ),
    )

  router.get(
    '/users/:id/sessions',
    perUser('read:sessions', (id, res) => {
      res.json({ sessions: [...state.sessions.values()].filter((s) => s.user_id === id) })
    }),
  )
  router.delete(
    '/users/:id/sessions',
    perUser('delete:sessions', (id, res) => {
      for (const [sid, session] of state.sessions) if (session.user_id === id) state.sessions.delete(sid)
      res.status(202).end()
    }),
  )
  router.get(
    '/users/:id/refresh-tokens',
    perUser('read:refresh_tokens', (id, res) => {
      res.json({ tokens: tokensOf(id).map(([, t]) => refreshTokenView(t)) })
    }),
  )
  router.delete(
    '/users/:id/refresh-tokens',
    perUser('delete:refresh_tokens', (id, res) => {
      for (const [secret] of tokensOf(id)) state.refreshTokens.delete(secret)
      res.status(202).end()
    }),
  )

  router.get(
    '/device-credentials',
    scoped('read:device_credentials', (req, res) => listDeviceCredentials(state, req, res)),
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
  return router
}
