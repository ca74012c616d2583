import express, { type Response, type Router } from 'express'
import { visibilityOf } from './keycloak-admin-access'
import type { KeycloakRealmState } from './keycloak-realm-state'
import type { EmulatedRole } from './keycloak-roles'

/**
 * Roles and clients of one realm (`/admin/realms/{realm}`), as Keycloak answers them: `GET /roles/{name}`,
 * `GET /roles-by-id/{id}` and `/roles-by-id/{id}/composites` (the direct children only:
 * RoleByIdResource.getRoleComposites, hidden from an admin that may not view the role), `GET /clients?clientId=`
 * (ClientRepresentation: `publicClient`, `directAccessGrantsEnabled`, `attributes` as configured; the built-in clients are
 * simply reported confidential without direct access grants, which nothing here reads).
 */
export function createKeycloakRoleRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const { roles } = state
  const noRole = (res: Response) => void res.status(404).json({ error: 'Could not find role' })
  const withDetails = (role: EmulatedRole) => ({ ...roles.brief(role), description: '', attributes: {} })

  router.get('/roles/:name', (req, res) => {
    const role = roles.find(String(req.params.name))
    if (!role) return noRole(res)
    res.json(withDetails(role))
  })
  router.get('/roles-by-id/:id', (req, res) => {
    const role = roles.byId(String(req.params.id))
    if (!role) return noRole(res)
    res.json(withDetails(role))
  })
  router.get('/roles-by-id/:id/composites', (req, res) => {
    const role = roles.byId(String(req.params.id))
    if (!role) return noRole(res)
    const can = visibilityOf(res)
    if (!(role.client ? can.clientRoles : can.realmRoles))
      return void res.status(403).json({ error: 'HTTP 403 Forbidden' })
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
        .map(({ id, clientId }) => {
          const configured = state.clients.find((c) => c.clientId === clientId)
          return {
            id,
            clientId,
            enabled: true,
            publicClient: configured?.publicClient ?? false,
            directAccessGrantsEnabled: configured ? configured.directAccessGrants !== false : false,
            attributes: { ...configured?.attributes },
          }
        }),
    )
  })
  // ClientResource.update: what the set-up changes here (attributes replace the set, as the representation says).
  router.put('/clients/:id', (req, res) => {
    const known = roles.clients().find((c) => c.id === req.params.id)
    const configured = known && state.clients.find((c) => c.clientId === known.clientId)
    if (!configured) return void res.status(404).json({ error: 'Could not find client' })
    const body = req.body as { attributes?: Record<string, unknown>; directAccessGrantsEnabled?: unknown }
    if (body.attributes)
      configured.attributes = Object.fromEntries(
        Object.entries(body.attributes).map(([name, value]) => [name, String(value)]),
      )
    if (typeof body.directAccessGrantsEnabled === 'boolean')
      configured.directAccessGrants = body.directAccessGrantsEnabled
    res.status(204).end()
  })
  return router
}
