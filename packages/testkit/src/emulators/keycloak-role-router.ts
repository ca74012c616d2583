import express, { type Request, type Response, type Router } from 'express'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'
import type { EmulatedRole } from './keycloak-roles'

/** What the admin token may see of roles (RolePermissions.canView): realm roles, client roles. */
export interface RoleVisibility {
  realmRoles: boolean
  clientRoles: boolean
}
const visibilityOf = (res: Response): RoleVisibility =>
  (res.locals.roleVisibility as RoleVisibility | undefined) ?? { realmRoles: true, clientRoles: true }

/**
 * Roles, clients and role mappings of one realm (`/admin/realms/{realm}`), as Keycloak answers them:
 * - `GET /roles/{name}`, `GET /roles-by-id/{id}` and `/roles-by-id/{id}/composites` (the direct children only:
 *   RoleByIdResource.getRoleComposites), `GET /clients?clientId=`;
 * - `POST`/`DELETE /users/{id}/role-mappings/realm` (role looked up by name, the id must match: RoleMapperResource);
 * - `GET /users/{id}/role-mappings` (direct mappings) and `/role-mappings/realm/composite` (effective realm roles,
 *   groups included: RoleUtils.getDeepRoleMappings), both filtered by what the admin may view
 *   (`auth.roles().canView`: realm roles need view-realm, client roles view-clients);
 * - `GET /users/{id}/role-mappings/clients/{client-uuid}/composite`: the client's roles the user has, composites
 *   and groups included, not filtered (ClientRoleMappingsResource.getCompositeClientRoleMappings).
 */
export function createKeycloakRoleRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const { roles, users } = state
  const notFound = (res: Response, error = 'User not found') => void res.status(404).json({ error })
  const userOf = (req: Request) => users.get(String(req.params.id))
  const visible = (res: Response) => {
    const can = visibilityOf(res)
    return (role: EmulatedRole) => (role.client ? can.clientRoles : can.realmRoles)
  }

  router.get('/roles/:name', (req, res) => {
    const role = roles.find(String(req.params.name))
    if (!role) return notFound(res, 'Could not find role')
    res.json({ ...roles.brief(role), description: '', attributes: {} })
  })
  router.get('/roles-by-id/:id', (req, res) => {
    const role = roles.byId(String(req.params.id))
    if (!role) return notFound(res, 'Could not find role')
    res.json({ ...roles.brief(role), description: '', attributes: {} })
  })
  router.get('/roles-by-id/:id/composites', (req, res) => {
    const role = roles.byId(String(req.params.id))
    if (!role) return notFound(res, 'Could not find role')
    if (!visible(res)(role)) return void res.status(403).json({ error: 'HTTP 403 Forbidden' })
    res.json(
      role.composites
        .map((ref) => roles.find(ref))
        .filter((r): r is EmulatedRole => r !== undefined)
        .map(roles.brief),
    )
  })
  router.get('/clients', (req, res) => {
    const wanted = req.query.clientId
    res.json(
      roles
        .clients()
        .filter(({ clientId }) => wanted === undefined || clientId === wanted)
        .map(({ id, clientId }) => ({ id, clientId, enabled: true })),
    )
  })

  const mapRoles = (add: boolean) => (req: Request, res: Response) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    const wanted = Array.isArray(req.body) ? (req.body as { id?: string; name?: string }[]) : []
    // The server looks each role up by name and requires the id to match.
    if (wanted.some((role) => !role.name || roles.find(role.name)?.id !== role.id))
      return notFound(res, 'Role not found')
    for (const role of wanted)
      if (add) user.realmRoles.add(role.name as string)
      else user.realmRoles.delete(role.name as string)
    res.status(204).end()
  }
  const realmMappings = (user: EmulatedKeycloakUser) =>
    [...user.realmRoles]
      .map((name) => roles.find(name))
      .filter((r): r is EmulatedRole => r !== undefined)
      .map(roles.brief)
  router.post('/users/:id/role-mappings/realm', mapRoles(true))
  router.delete('/users/:id/role-mappings/realm', mapRoles(false))
  router.get('/users/:id/role-mappings/realm', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    res.json(visibilityOf(res).realmRoles ? realmMappings(user) : [])
  })
  router.get('/users/:id/role-mappings/realm/composite', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    res.json(
      state
        .effectiveRoles(user)
        .filter((role) => !role.client && visible(res)(role))
        .map(roles.brief),
    )
  })
  router.get('/users/:id/role-mappings/clients/:client/composite', (req, res) => {
    const user = userOf(req)
    const clientId = roles.clientIdOf(String(req.params.client))
    if (!user) return notFound(res)
    if (!clientId) return notFound(res, 'Client not found')
    res.json(
      state
        .effectiveRoles(user)
        .filter((role) => role.client === clientId)
        .map(roles.brief),
    )
  })
  // All direct mappings: realm roles, and client roles by client (omitted when there are none).
  router.get('/users/:id/role-mappings', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    const can = visibilityOf(res)
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
              .filter((r): r is EmulatedRole => r !== undefined)
              .map(roles.brief),
          },
        ]),
    )
    const realm = can.realmRoles ? realmMappings(user) : []
    res.json({
      ...(realm.length > 0 ? { realmMappings: realm } : {}),
      ...(Object.keys(clientMappings).length > 0 ? { clientMappings } : {}),
    })
  })
  return router
}
