import express, { type Request, type Response, type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import type { EmulatedKeycloakUser, EmulatedSession, KeycloakRealmState } from './keycloak-realm-state'

/** The user's sessions, one per session id (its refresh tokens share it), online or offline. */
function sessionsOf(state: KeycloakRealmState, userId: string, offline: boolean): EmulatedSession[] {
  const byId = new Map<string, EmulatedSession>()
  for (const session of state.sessions.values())
    if (session.userId === userId && session.offline === offline && !byId.has(session.sid))
      byId.set(session.sid, session)
  return [...byId.values()]
}

/** ModelToRepresentation.toRepresentation(UserSessionModel): `start` and `lastAccess` in epoch milliseconds. */
function representation(state: KeycloakRealmState, user: EmulatedKeycloakUser, session: EmulatedSession) {
  const clientUuid = state.roles.clientUuid(session.clientId) ?? session.clientId
  return {
    id: session.sid,
    username: user.username,
    userId: user.id,
    ipAddress: '127.0.0.1',
    start: session.started,
    lastAccess: session.lastAccess,
    rememberMe: false,
    clients: { [clientUuid]: session.clientId },
    transientUser: false,
  }
}

/** Removes every refresh token of the session: its tokens then get "Session not active". */
function endSession(state: KeycloakRealmState, sid: string, offline: boolean): boolean {
  let found = false
  for (const [token, session] of state.sessions)
    if (session.sid === sid && session.offline === offline) found = state.sessions.delete(token)
  return found
}

/**
 * `DELETE /sessions/{session}` (RealmAdminResource.deleteSession): the online session of that id, 404
 * "Sesssion not found" (sic) when none; with `isOffline=true` the offline one, from 24.0.2 (#28129): earlier
 * servers ignore the parameter.
 */
function deleteSession(state: KeycloakRealmState, req: Request, res: Response) {
  const offline = state.deletesOfflineSessions && req.query.isOffline === 'true'
  if (!endSession(state, String(req.params.session), offline))
    return void res.status(404).json({ error: 'Sesssion not found' })
  res.status(204).end()
}

/**
 * The admin API's session calls, under `/admin/realms/{realm}` (UserResource.java, RealmAdminResource.java):
 * - `POST /users/{id}/logout` sets the user's not-before to now and removes its sessions; offline sessions stay
 *   but their tokens are then stale (TokenManager: "Stale token"). A new password ends none of them.
 * - `GET /users/{id}/sessions`: its online sessions; `GET /users/{id}/offline-sessions/{clientUuid}`: its
 *   offline sessions with that client (404 "Client not found" for an unknown uuid).
 * - `DELETE /sessions/{session}` (see `deleteSession`).
 * - `DELETE /users/{id}/consents/{clientId}` (UserResource.revokeConsent): the consent and every offline token
 *   of the client; 404 "Consent nor offline token not found" when there is neither (no consents are modelled).
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
  router.get(
    '/users/:id/sessions',
    withUser(state, (user, _req, res) => {
      res.json(sessionsOf(state, user.id, false).map((s) => representation(state, user, s)))
    }),
  )
  router.get(
    '/users/:id/offline-sessions/:client',
    withUser(state, (user, req, res) => {
      const clientId = state.roles.clientIdOf(String(req.params.client))
      if (!clientId) return void res.status(404).json({ error: 'Client not found' })
      const offline = sessionsOf(state, user.id, true).filter((s) => s.clientId === clientId)
      res.json(offline.map((s) => representation(state, user, s)))
    }),
  )
  router.delete('/sessions/:session', (req, res) => deleteSession(state, req, res))
  router.delete(
    '/users/:id/consents/:client',
    withUser(state, (user, req, res) => {
      const clientId = String(req.params.client)
      if (!state.roles.clientUuid(clientId)) return void res.status(404).json({ error: 'Client not found' })
      let revoked = false
      for (const [token, session] of state.sessions)
        if (session.userId === user.id && session.offline && session.clientId === clientId)
          revoked = state.sessions.delete(token) || revoked
      if (!revoked) return void res.status(404).json({ error: 'Consent nor offline token not found' })
      res.status(204).end()
    }),
  )
  return router
}
