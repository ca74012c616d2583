import express, { type Request, type Response, type Router } from 'express'
import { validateAdminWrite, type ProfileError } from './keycloak-user-profile'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'

const MANAGED = new Set(['username', 'email', 'firstName', 'lastName'])
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined

/**
 * The admin user API of one realm (`/admin/realms/{realm}`), as Keycloak 24.0.4-26 answers it. The facts
 * modelled, each from shared/spec/idp-facts.md unless a vendor file is named:
 * - `PUT /users/{id}` has no partial updates since 24.0.4 (release notes): root attributes and `attributes`
 *   missing from the body are removed; `enabled`, `emailVerified`, `requiredActions` change only when sent.
 * - `GET /users`: `exact` for username/email/firstName/lastName, `q=name:value` attribute search compared
 *   lower-cased (JpaUserProvider.searchForUserStream), `search`, `first`/`max` (default 100),
 *   `briefRepresentation` (no attributes).
 * - custom attributes are dropped unless the unmanaged-attribute policy allows them.
 */
export function createKeycloakAdminRouter(state: KeycloakRealmState): Router {
  const admin = express.Router({ mergeParams: true })
  const { users } = state
  const profileError = (res: Response, error: ProfileError) => void res.status(400).json(error)
  const notFound = (res: Response) => void res.status(404).json({ error: 'User not found' })

  const keepAttributes = (attributes: unknown): Record<string, string[]> => {
    if (!state.unmanagedAttributes() || typeof attributes !== 'object' || attributes === null) return {}
    return Object.fromEntries(
      Object.entries(attributes as Record<string, unknown>)
        .filter(([name]) => !MANAGED.has(name))
        .map(([name, values]) => [name, (Array.isArray(values) ? values : [values]).map(String)]),
    )
  }
  const representation = (user: EmulatedKeycloakUser, brief = false) => ({
    id: user.id,
    username: user.username,
    ...(user.firstName !== undefined ? { firstName: user.firstName } : {}),
    ...(user.lastName !== undefined ? { lastName: user.lastName } : {}),
    ...(user.email !== undefined ? { email: user.email } : {}),
    emailVerified: user.emailVerified,
    enabled: user.enabled,
    createdTimestamp: user.createdTimestamp,
    totp: false,
    ...(!brief && Object.keys(user.attributes).length > 0 ? { attributes: user.attributes } : {}),
    ...(user.federationLink ? { federationLink: user.federationLink } : {}),
    disableableCredentialTypes: [],
    requiredActions: user.requiredActions,
    notBefore: user.notBefore,
  })
  const userOf = (req: Request) => users.get(String(req.params.id))

  admin.get('/users', (req, res) => {
    const query = req.query as Record<string, string | undefined>
    const exact = query.exact === 'true'
    const same = (stored: string | undefined, wanted: string) =>
      exact
        ? stored?.toLowerCase() === wanted.toLowerCase()
        : Boolean(stored?.toLowerCase().includes(wanted.toLowerCase()))
    const attributeTerms = (query.q ?? '')
      .split(' ')
      .filter(Boolean)
      .map((term) => [term.slice(0, term.indexOf(':')), term.slice(term.indexOf(':') + 1)] as const)
    const search = query.search?.replace(/^\*|\*$/g, '').toLowerCase()
    const found = [...users.values()].filter(
      (u) =>
        (query.username === undefined || same(u.username, query.username)) &&
        (query.email === undefined || same(u.email, query.email)) &&
        (query.firstName === undefined || same(u.firstName, query.firstName)) &&
        (query.lastName === undefined || same(u.lastName, query.lastName)) &&
        attributeTerms.every(([name, value]) =>
          (u.attributes[name] ?? []).some((stored) => stored.toLowerCase() === value.toLowerCase()),
        ) &&
        (search === undefined ||
          [u.username, u.email, u.firstName, u.lastName].some((v) => v?.toLowerCase().includes(search))),
    )
    const first = Math.max(0, Number(query.first ?? 0) || 0)
    const max = Number(query.max ?? 100)
    res.json(
      found
        .slice(first, first + (max >= 0 ? max : 100))
        .map((u) => representation(u, query.briefRepresentation === 'true')),
    )
  })

  admin.post('/users', (req, res) => {
    const body = req.body as Record<string, unknown>
    const invalid = validateAdminWrite(body)
    if (invalid) return profileError(res, invalid)
    if (state.byUsername(String(body.username)))
      return void res.status(409).json({ errorMessage: 'User exists with same username' })
    if (state.byEmail(String(body.email)))
      return void res.status(409).json({ errorMessage: 'User exists with same email' })
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
      attributes: keepAttributes(body.attributes),
      requiredActions: [...new Set(requiredActions)],
      password: credential?.value,
      // A new user gets the realm's default roles (default-roles-<realm>).
      realmRoles: new Set([state.roles.defaultRole]),
    })
    res.status(201).location(`${state.url()}/admin/realms/${state.realm}/users/${user.id}`).end()
  })

  admin.get('/users/:id', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    res.json(representation(user))
  })

  admin.put('/users/:id', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    const body = req.body as Record<string, unknown>
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
    if (holder && holder.id !== user.id)
      return void res.status(409).json({ errorMessage: 'User exists with same email' })
    // The whole editable state: what is not sent is gone (24.0.4 release notes).
    user.email = email
    user.firstName = text(body.firstName)
    user.lastName = text(body.lastName)
    user.attributes = keepAttributes(body.attributes)
    if (typeof body.enabled === 'boolean') user.enabled = body.enabled
    if (typeof body.emailVerified === 'boolean') user.emailVerified = body.emailVerified
    if (Array.isArray(body.requiredActions)) user.requiredActions = body.requiredActions.map(String)
    res.status(204).end()
  })

  admin.delete('/users/:id', (req, res) => {
    if (!users.delete(String(req.params.id))) return notFound(res)
    res.status(204).end()
  })

  // Sessions and refresh tokens survive a new password: UserResource.resetPassword ends none of them.
  admin.put('/users/:id/reset-password', (req, res) => {
    const user = userOf(req)
    if (!user) return notFound(res)
    const body = req.body as { value?: string; temporary?: boolean }
    user.password = body.value
    if (body.temporary === true && !user.requiredActions.includes('UPDATE_PASSWORD'))
      user.requiredActions.push('UPDATE_PASSWORD')
    res.status(204).end()
  })

  return admin
}
