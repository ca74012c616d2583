import express, { type Response, type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import { adminWrites, validateAdminWrite, type ProfileError } from './keycloak-user-profile'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'
import { userRepresentation } from './keycloak-user-representation'
import { searchUsers } from './keycloak-user-search'

type Body = Record<string, unknown>

const MANAGED = new Set(['username', 'email', 'firstName', 'lastName'])
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined
const profileError = (res: Response, error: ProfileError) => void res.status(400).json(error)
const notFound = (res: Response) => void res.status(404).json({ error: 'User not found' })
const emailTaken = (res: Response) =>
  void res.status(409).json({ errorMessage: 'User exists with same email' })

/** The custom attributes an admin write keeps: those the user profile lets administrators edit. */
const keepAttributes = (state: KeycloakRealmState, attributes: unknown): Record<string, string[]> => {
  if (typeof attributes !== 'object' || attributes === null) return {}
  const writable = (name: string) =>
    !MANAGED.has(name) && adminWrites(name, state.unmanagedAttributePolicy(), state.declaredAttributes)
  return Object.fromEntries(
    Object.entries(attributes as Record<string, unknown>)
      .filter(([name]) => writable(name))
      .map(([name, values]) => [name, (Array.isArray(values) ? values : [values]).map(String)]),
  )
}

/** `POST /users`: the profile's validation, unique username and email, 201 with `Location`, the default roles. */
function createUser(state: KeycloakRealmState, body: Body, res: Response) {
  const invalid = validateAdminWrite(body)
  if (invalid) return profileError(res, invalid)
  if (state.byUsername(String(body.username)))
    return void res.status(409).json({ errorMessage: 'User exists with same username' })
  if (state.byEmail(String(body.email))) return emailTaken(res)
  const credential = (Array.isArray(body.credentials) ? body.credentials : []).find(
    (c: { type?: string }) => c.type === 'password',
  ) as { value?: string; temporary?: boolean } | undefined
  const requiredActions = Array.isArray(body.requiredActions) ? body.requiredActions.map(String) : []
  if (credential?.temporary || (credential && state.requiredActionsQuirk))
    requiredActions.push('UPDATE_PASSWORD')
  const user = state.addUser({
    username: String(body.username),
    email: text(body.email),
    firstName: text(body.firstName),
    lastName: text(body.lastName),
    enabled: body.enabled === true,
    emailVerified: body.emailVerified === true,
    attributes: keepAttributes(state, body.attributes),
    requiredActions: [...new Set(requiredActions)],
    password: credential?.value,
    // A new user gets the realm's default roles (default-roles-<realm>).
    realmRoles: new Set([state.roles.defaultRole]),
  })
  res.status(201).location(`${state.url()}/admin/realms/${state.realm}/users/${user.id}`).end()
}

/** `PUT /users/{id}`: the whole editable state; what is not sent is gone (24.0.4 release notes). */
function replaceUser(state: KeycloakRealmState, user: EmulatedKeycloakUser, body: Body, res: Response) {
  // The username cannot be removed; it is read-only unless the realm allows editing it (off by default).
  const username = text(body.username) ?? user.username
  const invalid = validateAdminWrite({ ...body, username })
  if (invalid) return profileError(res, invalid)
  if (username.toLowerCase() !== user.username)
    return profileError(res, {
      field: 'username',
      errorMessage: 'error-user-attribute-read-only',
      params: ['username'],
    })
  const email = String(body.email)
  const holder = state.byEmail(email)
  if (holder && holder.id !== user.id) return emailTaken(res)
  user.email = email
  user.firstName = text(body.firstName)
  user.lastName = text(body.lastName)
  user.attributes = keepAttributes(state, body.attributes)
  if (typeof body.enabled === 'boolean') user.enabled = body.enabled
  if (typeof body.emailVerified === 'boolean') user.emailVerified = body.emailVerified
  if (Array.isArray(body.requiredActions)) user.requiredActions = body.requiredActions.map(String)
  res.status(204).end()
}

/**
 * The admin user API of one realm (`/admin/realms/{realm}`), as Keycloak 24.0.4-26 answers it. The facts
 * modelled, each from the spec's idp-facts.md unless a vendor file is named:
 * - `PUT /users/{id}` has no partial updates since 24.0.4 (release notes): root attributes and `attributes`
 *   missing from the body are removed; `enabled`, `emailVerified`, `requiredActions` change only when sent.
 * - `GET /users` (`searchUsers`): exact and attribute search, paging, brief representations.
 * - custom attributes are dropped unless the user profile lets administrators edit them (declared with `admin`
 *   in `permissions.edit`, or unmanaged under `ENABLED` / `ADMIN_EDIT`).
 */
export function createKeycloakUsersRouter(state: KeycloakRealmState): Router {
  const admin = express.Router({ mergeParams: true })
  admin.get('/users', (req, res) => searchUsers(state, req, res))
  admin.post('/users', (req, res) => createUser(state, req.body as Body, res))
  admin.get(
    '/users/:id',
    withUser(state, (user, _req, res) => void res.json(userRepresentation(user))),
  )
  admin.put(
    '/users/:id',
    withUser(state, (user, req, res) => replaceUser(state, user, req.body as Body, res)),
  )
  admin.delete('/users/:id', (req, res) => {
    if (!state.users.delete(String(req.params.id))) return notFound(res)
    res.status(204).end()
  })
  // Sessions and refresh tokens survive a new password: UserResource.resetPassword ends none of them.
  admin.put(
    '/users/:id/reset-password',
    withUser(state, (user, req, res) => {
      const body = req.body as { value?: string; temporary?: boolean }
      user.password = body.value
      if (body.temporary === true && !user.requiredActions.includes('UPDATE_PASSWORD'))
        user.requiredActions.push('UPDATE_PASSWORD')
      res.status(204).end()
    }),
  )
  return admin
}
