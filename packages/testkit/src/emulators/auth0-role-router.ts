import express, { type Router } from 'express'
import { offsetPage, scoped, withUser } from './auth0-management-access'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedAuth0Role } from './auth0-tenant-state'

const roleView = (r: EmulatedAuth0Role) => ({ ...r, description: r.name })

/**
 * Roles and permissions in the Management API v2: `GET /roles?name_filter=` (a case-insensitive substring),
 * `GET`/`POST /users/{id}/roles` (assigning a role the user has is a no-op), `GET /roles/{id}/permissions`
 * (read:roles) and `GET /users/{id}/permissions` (read:users): offset pages, a plain array unless
 * `include_totals=true` (the shapes of the `auth0` SDK's types).
 */
export function createAuth0RoleRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  const { roles, users } = state

  router.get('/roles', (req, res) => {
    const filter = String(req.query.name_filter ?? '').toLowerCase()
    res.json(roles.filter((r) => r.name.toLowerCase().includes(filter)).map(roleView))
  })
  router.get(
    '/users/:id/roles',
    withUser(users, (user, _id, _req, res) => {
      res.json(roles.filter((r) => user.roles.has(r.id)).map(roleView))
    }),
  )
  router.post(
    '/users/:id/roles',
    withUser(users, (user, _id, req, res) => {
      const ids = (req.body as { roles?: unknown }).roles
      if (!Array.isArray(ids) || ids.some((id) => !roles.some((r) => r.id === id)))
        return problem(res, 404, 'Not Found', 'The role does not exist.', 'inexistent_role')
      for (const id of ids) user.roles.add(String(id))
      res.status(204).end()
    }),
  )
  router.get(
    '/roles/:id/permissions',
    scoped('read:roles', (req, res) => {
      const role = roles.find((r) => r.id === req.params.id)
      if (!role) return problem(res, 404, 'Not Found', 'The role does not exist.', 'inexistent_role')
      offsetPage(req, res, role.permissions ?? [], 'permissions')
    }),
  )
  // (unconfirmed) Direct permissions and those of the user's roles, each saying where it comes from.
  router.get(
    '/users/:id/permissions',
    scoped(
      'read:users',
      withUser(users, (user, _id, req, res) => {
        const viaRoles = roles
          .filter((role) => user.roles.has(role.id))
          .flatMap((role) =>
            (role.permissions ?? []).map((p) => ({
              ...p,
              sources: [{ source_id: role.id, source_name: role.name, source_type: 'ROLE' }],
            })),
          )
        const direct = user.permissions.map((p) => ({
          ...p,
          sources: [{ source_id: '', source_name: '', source_type: 'DIRECT' }],
        }))
        offsetPage(req, res, [...direct, ...viaRoles], 'permissions')
      }),
    ),
  )
  return router
}
