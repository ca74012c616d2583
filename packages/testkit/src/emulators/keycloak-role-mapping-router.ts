import express, { type Request, type Response, type Router } from 'express'
import { visibilityOf, type RoleVisibility } from './keycloak-admin-access'
import { withUser as withUserOf } from './keycloak-admin-user'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'
import type { EmulatedRole } from './keycloak-roles'

const notFound = (res: Response, error = 'User not found') => void res.status(404).json({ error })
const known = (r: EmulatedRole | undefined): r is EmulatedRole => r !== undefined

/** The user's direct realm-role mappings, brief. */
const realmMappings = (state: KeycloakRealmState, user: EmulatedKeycloakUser) =>
  [...user.realmRoles]
    .map((name) => state.roles.find(name))
    .filter(known)
    .map(state.roles.brief)

/** `GET /users/{id}/role-mappings`: realm roles, and client roles by client (omitted when there are none). */
function directMappings(state: KeycloakRealmState, user: EmulatedKeycloakUser, can: RoleVisibility) {
  const { roles } = state
  const clientMappings = Object.fromEntries(
    Object.entries(can.clientRoles ? user.clientRoles : {})
      .filter(([, names]) => names.length > 0)
      .map(([client, names]) => [
        client,
        {
          id: roles.clientUuid(client),
          client,
          mappings: names
            .map((role) => roles.find({ client, role }))
            .filter(known)
            .map(roles.brief),
        },
      ]),
  )
  const realm = can.realmRoles ? realmMappings(state, user) : []
  return {
    ...(realm.length > 0 ? { realmMappings: realm } : {}),
    ...(Object.keys(clientMappings).length > 0 ? { clientMappings } : {}),
  }
}

/** `POST`/`DELETE /users/{id}/role-mappings/realm`: the server looks each role up by name; the id must match. */
const mapRoles = (state: KeycloakRealmState, add: boolean) => (req: Request, res: Response) => {
  const user = state.users.get(String(req.params.id))
  if (!user) return notFound(res)
  const wanted = Array.isArray(req.body) ? (req.body as { id?: string; name?: string }[]) : []
  if (wanted.some((role) => !role.name || state.roles.find(role.name)?.id !== role.id))
    return notFound(res, 'Role not found')
  for (const role of wanted)
    if (add) user.realmRoles.add(role.name as string)
    else user.realmRoles.delete(role.name as string)
  res.status(204).end()
}

/**
 * Role mappings of a user, under `/admin/realms/{realm}` (RoleMapperResource):
 * - `POST`/`DELETE /users/{id}/role-mappings/realm` (role looked up by name, the id must match);
 * - `GET /users/{id}/role-mappings` (direct mappings), `/role-mappings/realm` and `/role-mappings/realm/composite`
 *   (effective realm roles, groups included: RoleUtils.getDeepRoleMappings), filtered by what the admin may view
 *   (`auth.roles().canView`: realm roles need view-realm, client roles view-clients);
 * - `GET /users/{id}/role-mappings/clients/{client-uuid}/composite`: the client's roles the user has, composites
 *   and groups included, not filtered (ClientRoleMappingsResource.getCompositeClientRoleMappings).
 */
export function createKeycloakRoleMappingRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const withUser = (handle: Parameters<typeof withUserOf>[1]) => withUserOf(state, handle)
  router.post('/users/:id/role-mappings/realm', mapRoles(state, true))
  router.delete('/users/:id/role-mappings/realm', mapRoles(state, false))
  router.get(
    '/users/:id/role-mappings/realm',
    withUser(
      (user, _req, res) => void res.json(visibilityOf(res).realmRoles ? realmMappings(state, user) : []),
    ),
  )
  router.get(
    '/users/:id/role-mappings/realm/composite',
    withUser((user, _req, res) => {
      const can = visibilityOf(res)
      const visible = state.effectiveRoles(user).filter((role) => !role.client && can.realmRoles)
      res.json(visible.map(state.roles.brief))
    }),
  )
  router.get('/users/:id/role-mappings/clients/:client/composite', (req, res) => {
    const user = state.users.get(String(req.params.id))
    const clientId = state.roles.clientIdOf(String(req.params.client))
    if (!user) return notFound(res)
    if (!clientId) return notFound(res, 'Client not found')
    res.json(
      state
        .effectiveRoles(user)
        .filter((role) => role.client === clientId)
        .map(state.roles.brief),
    )
  })
  router.get(
    '/users/:id/role-mappings',
    withUser((user, _req, res) => void res.json(directMappings(state, user, visibilityOf(res)))),
  )
  return router
}
