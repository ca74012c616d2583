import { randomUUID } from 'node:crypto'
import express, { type Response, type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import { JWT_AUTHORIZATION_GRANT_PROVIDER, jwtGrantAvailable } from './keycloak-jwt-authorization-grant'
import type { EmulatedIdentityProvider, KeycloakRealmState } from './keycloak-realm-state'

/** The provider types this emulator knows; `jwt-authorization-grant` only while its feature is on. */
const typesOf = (state: KeycloakRealmState) => [
  'oidc',
  'keycloak-oidc',
  'saml',
  ...(jwtGrantAvailable(state) ? [JWT_AUTHORIZATION_GRANT_PROVIDER] : []),
]

const representation = ({ internalId, ...idp }: EmulatedIdentityProvider) => ({
  ...idp,
  internalId,
  displayName: idp.alias,
  trustEmail: false,
  storeToken: false,
  linkOnly: false,
  hideOnLogin: false,
})

const notFound = (res: Response) => void res.status(404).json({ error: 'HTTP 404 Not Found' })

/**
 * Identity providers and the links to them, under `/admin/realms/{realm}` (IdentityProvidersResource,
 * IdentityProviderResource, UserResource):
 * - `GET /identity-provider/instances`, `GET /identity-provider/instances/{alias}` (404 when absent),
 *   `POST /identity-provider/instances` (201; 409 "Identity Provider {alias} already exists"; an unknown
 *   `providerId`, e.g. `jwt-authorization-grant` with its feature off: 400 "Invalid identity provider id"),
 *   `PUT /identity-provider/instances/{alias}` (204), `DELETE` (204);
 * - `POST /users/{id}/federated-identity/{provider}` `{identityProvider, userId, userName}`: 204, 409
 *   `{"errorMessage":"User is already linked with provider"}`; `DELETE` (204, 404 "Link not found");
 * - `DELETE /users/{id}/credentials/{credentialId}`: 204, 404 "Credential not found".
 * The realm-management roles they need are `requireAdminToken`'s (view- / manage-identity-providers).
 */
export function createKeycloakIdentityProviderRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const instances = '/identity-provider/instances'
  router.get(
    instances,
    (_req, res) => void res.json([...state.identityProviders.values()].map(representation)),
  )
  router.get(`${instances}/:alias`, (req, res) => {
    const idp = state.identityProviders.get(String(req.params.alias))
    if (!idp) return notFound(res)
    res.json(representation(idp))
  })
  router.post(instances, (req, res) => {
    const body = req.body as Partial<EmulatedIdentityProvider>
    if (typeof body.alias !== 'string' || !body.alias)
      return void res.status(400).json({ errorMessage: 'Identity Provider alias is required' })
    if (!typesOf(state).includes(String(body.providerId)))
      return void res.status(400).json({ errorMessage: 'Invalid identity provider id' })
    if (state.identityProviders.has(body.alias))
      return void res.status(409).json({ errorMessage: `Identity Provider ${body.alias} already exists` })
    state.identityProviders.set(body.alias, {
      alias: body.alias,
      providerId: String(body.providerId),
      enabled: body.enabled !== false,
      config: { ...body.config },
      internalId: randomUUID(),
    })
    res.status(201).location(`${state.url()}/admin/realms/${state.realm}${instances}/${body.alias}`).end()
  })
  router.put(`${instances}/:alias`, (req, res) => {
    const idp = state.identityProviders.get(String(req.params.alias))
    if (!idp) return notFound(res)
    const body = req.body as Partial<EmulatedIdentityProvider>
    if (typeof body.enabled === 'boolean') idp.enabled = body.enabled
    if (body.config) idp.config = { ...body.config }
    res.status(204).end()
  })
  router.delete(`${instances}/:alias`, (req, res) => {
    if (!state.identityProviders.delete(String(req.params.alias))) return notFound(res)
    res.status(204).end()
  })

  router.post(
    '/users/:id/federated-identity/:provider',
    withUser(state, (user, req, res) => {
      const provider = String(req.params.provider)
      if (user.federatedIdentities.some((l) => l.identityProvider === provider))
        return void res.status(409).json({ errorMessage: 'User is already linked with provider' })
      const body = req.body as { userId?: unknown; userName?: unknown }
      user.federatedIdentities.push({
        identityProvider: provider,
        userId: String(body.userId),
        userName: String(body.userName),
      })
      res.status(204).end()
    }),
  )
  router.delete(
    '/users/:id/federated-identity/:provider',
    withUser(state, (user, req, res) => {
      const before = user.federatedIdentities.length
      user.federatedIdentities = user.federatedIdentities.filter(
        (l) => l.identityProvider !== String(req.params.provider),
      )
      if (user.federatedIdentities.length === before)
        return void res.status(404).json({ error: 'Link not found' })
      res.status(204).end()
    }),
  )
  router.delete(
    '/users/:id/credentials/:credentialId',
    withUser(state, (user, req, res) => {
      const id = String(req.params.credentialId)
      if (user.password !== undefined && id === `${user.id}-password`) {
        user.password = undefined
        return void res.status(204).end()
      }
      const before = user.credentials.length
      user.credentials = user.credentials.filter((c) => c.id !== id)
      if (user.credentials.length === before)
        return void res.status(404).json({ error: 'Credential not found' })
      res.status(204).end()
    }),
  )
  return router
}
