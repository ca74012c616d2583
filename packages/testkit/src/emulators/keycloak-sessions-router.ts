import express, { type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import type { KeycloakRealmState } from './keycloak-realm-state'

/**
 * The admin API's session calls, under `/admin/realms/{realm}` (UserResource.java): `POST /users/{id}/logout`
 * sets the user's not-before to now and removes its sessions; offline sessions stay but their tokens are then
 * stale (TokenManager: "Stale token"). A new password ends none of them.
 */
export function createKeycloakSessionsRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  router.post(
    '/users/:id/logout',
    withUser(state, (user, _req, res) => {
      user.notBefore = Math.floor(Date.now() / 1000)
      for (const [token, session] of state.sessions)
        if (session.userId === user.id && !session.offline) state.sessions.delete(token)
      res.status(204).end()
    }),
  )
  return router
}
