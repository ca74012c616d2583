import express, { type Request, type Response, type Router } from 'express'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'

/**
 * What ties a user to more than its password, under `/admin/realms/{realm}` (UserResource.java unless named):
 * - `GET /users/{id}/groups` and `/groups/count` (groupMembership, getGroupMembershipCount), `PUT
 *   /users/{id}/groups/{groupId}` (joinGroup), `POST`/`GET /groups`, `DELETE /groups/{id}`;
 * - `GET /users/{id}/credentials`: every stored credential, the password and second factors (`otp`,
 *   `webauthn`, …), without secrets;
 * - `GET /users/{id}/federated-identity`: its identity-provider links;
 * - `POST /users/{id}/logout`: sets the user's not-before to now and removes its sessions; offline sessions stay
 *   but their tokens are then stale (TokenManager: "Stale token");
 * - `GET /` (the realm: `organizationsEnabled` on 26, read with view-realm);
 * - Keycloak 26: `GET /organizations/members/{id}/organizations` (OrganizationsResource), and 404 "Organizations
 *   not enabled for this realm." on every organizations path while the realm's `organizationsEnabled` is off
 *   (Organizations.checkEnabled), the default of a new realm.
 */
export function createKeycloakUserLinksRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const notFound = (res: Response, error = 'User not found') => void res.status(404).json({ error })
  const userOf = (req: Request) => state.users.get(String(req.params.id))
  const groupView = (id: string) => {
    const group = state.groups.get(id)
    return group && { id: group.id, name: group.name, path: `/${group.name}`, subGroups: [] }
  }
  const withUser =
    (handle: (user: EmulatedKeycloakUser, req: Request, res: Response) => void) =>
    (req: Request, res: Response) => {
      const user = userOf(req)
      if (!user) return notFound(res)
      handle(user, req, res)
    }

  router.get(
    '/users/:id/groups',
    withUser((user, _req, res) => {
      res.json(user.groups.map(groupView).filter(Boolean))
    }),
  )
  router.get(
    '/users/:id/groups/count',
    withUser((user, _req, res) => {
      res.json({ count: user.groups.length })
    }),
  )
  router.put(
    '/users/:id/groups/:groupId',
    withUser((user, req, res) => {
      const groupId = String(req.params.groupId)
      if (!state.groups.has(groupId)) return notFound(res, 'Group not found')
      if (!user.groups.includes(groupId)) user.groups.push(groupId)
      res.status(204).end()
    }),
  )
  router.post('/groups', (req, res) => {
    const name = (req.body as { name?: unknown }).name
    if (typeof name !== 'string' || !name)
      return void res.status(400).json({ errorMessage: 'Group name is missing' })
    if ([...state.groups.values()].some((g) => g.name === name))
      return void res.status(409).json({ errorMessage: `Top level group named '${name}' already exists.` })
    const group = state.addGroup({ name })
    res.status(201).location(`${state.url()}/admin/realms/${state.realm}/groups/${group.id}`).end()
  })
  router.get('/groups', (_req, res) => {
    res.json([...state.groups.keys()].map(groupView))
  })
  router.delete('/groups/:groupId', (req, res) => {
    const groupId = String(req.params.groupId)
    if (!state.groups.delete(groupId)) return notFound(res, 'Could not find group by id')
    for (const user of state.users.values()) user.groups = user.groups.filter((id) => id !== groupId)
    res.status(204).end()
  })

  router.get(
    '/users/:id/credentials',
    withUser((user, _req, res) => {
      res.json([
        ...(user.password !== undefined
          ? [
              {
                id: `${user.id}-password`,
                type: 'password',
                createdDate: user.createdTimestamp,
                credentialData: '{}',
              },
            ]
          : []),
        ...user.credentials.map((c) => ({ ...c, credentialData: '{}' })),
      ])
    }),
  )
  router.get(
    '/users/:id/federated-identity',
    withUser((user, _req, res) => {
      res.json(user.federatedIdentities)
    }),
  )

  router.post(
    '/users/:id/logout',
    withUser((user, _req, res) => {
      user.notBefore = Math.floor(Date.now() / 1000)
      for (const [token, session] of state.sessions)
        if (session.userId === user.id && !session.offline) state.sessions.delete(token)
      res.status(204).end()
    }),
  )

  // The realm's representation, as far as these routes care (RealmRepresentation.organizationsEnabled, 26).
  router.get('/', (_req, res) => {
    res.json({
      id: state.realm,
      realm: state.realm,
      enabled: true,
      ...(state.version >= 26 ? { organizationsEnabled: state.organizationsEnabled() } : {}),
    })
  })
  router.use('/organizations', (_req, res, next) => {
    if (state.version < 26) return void res.status(404).json({ error: 'HTTP 404 Not Found' })
    if (!state.organizationsEnabled())
      return void res.status(404).json({ errorMessage: 'Organizations not enabled for this realm.' })
    next()
  })
  router.get(
    '/organizations/members/:id/organizations',
    withUser((user, _req, res) => {
      res.json(
        user.organizations
          .map((id) => state.organizations.get(id))
          .filter(Boolean)
          .map((org) => ({ ...org, enabled: true })),
      )
    }),
  )
  return router
}
