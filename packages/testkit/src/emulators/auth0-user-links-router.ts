import express, { type Router } from 'express'
import { offsetPage, scoped, withUser } from './auth0-management-access'
import type { Auth0TenantState } from './auth0-tenant-state'

/**
 * What ties a user to more than its password, in the Management API v2 (each needs its scope, else 403
 * `insufficient_scope`): `GET /users/{id}/authentication-methods` (read:authentication_methods) and
 * `/users/{id}/organizations` (read:organizations), offset pages, a plain array unless `include_totals=true`.
 * Linked identities of other connections are part of the user itself (`identities`).
 */
export function createAuth0UserLinksRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  router.get(
    '/users/:id/authentication-methods',
    scoped(
      'read:authentication_methods',
      withUser(state.users, (user, id, req, res) => {
        // (unconfirmed) A database user lists its password among its methods.
        const password = state.isDatabase(user.connection)
          ? [
              {
                id: `password|${id.split('|')[1] ?? id}`,
                type: 'password',
                confirmed: true,
                created_at: new Date(0).toISOString(),
              },
            ]
          : []
        offsetPage(req, res, [...password, ...user.authenticationMethods], 'authenticators')
      }),
    ),
  )
  router.get(
    '/users/:id/organizations',
    scoped(
      'read:organizations',
      withUser(state.users, (user, _id, req, res) => {
        const organizations = user.organizations.map((org) => state.organizations.get(org)).filter(Boolean)
        offsetPage(req, res, organizations, 'organizations')
      }),
    ),
  )
  return router
}
