import express, { type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import type { KeycloakRealmState } from './keycloak-realm-state'

/**
 * What ties a user to more than its password, under `/admin/realms/{realm}` (UserResource.java unless named),
 * beside its groups (`createKeycloakGroupRouter`):
 * - `GET /users/{id}/credentials`: every stored credential, the password and second factors (`otp`,
 *   `webauthn`, …), without secrets;
 * - `GET /users/{id}/federated-identity`: its identity-provider links;
 * - `GET /` (the realm: `organizationsEnabled` on 26, read with view-realm);
 * - Keycloak 26: `GET /organizations/members/{id}/organizations` (OrganizationsResource), and 404 "Organizations
 *   not enabled for this realm." on every organizations path while the realm's `organizationsEnabled` is off
 *   (Organizations.checkEnabled), the default of a new realm.
 */
export function createKeycloakUserLinksRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  router.get(
    '/users/:id/credentials',
    withUser(state, (user, _req, res) => {
      const password =
        user.password !== undefined
          ? [
              {
                id: `${user.id}-password`,
                type: 'password',
                createdDate: user.createdTimestamp,
                credentialData: '{}',
              },
            ]
          : []
      res.json([...password, ...user.credentials.map((c) => ({ ...c, credentialData: '{}' }))])
    }),
  )
  router.get(
    '/users/:id/federated-identity',
    withUser(state, (user, _req, res) => void res.json(user.federatedIdentities)),
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
    withUser(state, (user, _req, res) => {
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
