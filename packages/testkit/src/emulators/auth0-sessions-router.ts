import express, { type Request, type Response, type Router } from 'express'
import { offsetPage, planOnly, scoped, withUser } from './auth0-management-access'
import { problem } from './auth0-problem'
import type { Auth0TenantState } from './auth0-tenant-state'

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
 * else 403 `insufficient_scope`; the refresh-token calls are `createAuth0RefreshTokensRouter`'s):
 * - `GET`/`DELETE /users/{id}/sessions` (read:/delete:sessions): Enterprise plans only
 *   (auth0.com/docs/manage-users/sessions/manage-user-sessions-with-auth0-management-api); the delete answers
 *   202. Deleting the sessions leaves the refresh tokens, which outlive sessions (same page).
 * - `GET /device-credentials?user_id=&type=refresh_token` and `DELETE /device-credentials/{id}`
 *   (read:/delete:device_credentials): the refresh-token revocation of every plan
 *   (auth0.com/docs/secure/tokens/refresh-tokens/revoke-refresh-tokens).
 */
export function createAuth0SessionsRouter(state: Auth0TenantState): Router {
  const router = express.Router()
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
