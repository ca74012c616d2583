// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out here on
// purpose, not imported from @pf/idp-clients: the emulator is an independent check of the client, not its echo.
import { randomBytes, randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import express, { type Request, type Response } from 'express'
import { clientCredentials } from './client-auth'
import { installControls, type EmulatorControls } from './emulator-controls'
import { SigningKey } from './signing-key'

export interface EmulatedKeycloakUser {
  id: string
  username: string
  email?: string
  enabled: boolean
  emailVerified: boolean
  attributes: Record<string, string[]>
  requiredActions: string[]
  password?: string
  realmRoles: Set<string>
  createdTimestamp: number
}

export interface KeycloakEmulatorOptions {
  version?: 24 | 25 | 26
  realm?: string
  adminUser?: string
  adminPassword?: string
  clients?: { clientId: string; secret: string; directAccessGrants?: boolean }[]
  roles?: string[]
  /**
   * The realm's unmanaged-attribute policy. Off (the default of a fresh realm since 24): custom attributes such
   * as pfUserId are dropped silently on create and update.
   */
  unmanagedAttributes?: boolean
  /** Version 24's quirk: users created with a non-temporary password keep `UPDATE_PASSWORD`. Default: version 24. */
  requiredActionsQuirk?: boolean
  adminTokenLifetimeSec?: number
  latencyMs?: number
  /** Default: a free port. */
  port?: number
}

export interface KeycloakEmulator extends EmulatorControls {
  url: string
  realm: string
  version: 24 | 25 | 26
  issuer: string
  users: Map<string, EmulatedKeycloakUser>
  /** Adds a user directly (another system's user, for instance). */
  seedUser(user: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser
  setUnmanagedAttributes(enabled: boolean): void
  /** Number of admin tokens issued so far. */
  adminTokensIssued(): number
  stop(): Promise<void>
}

const MANAGED = new Set(['username', 'email', 'firstName', 'lastName'])

/**
 * An HTTP emulator of Keycloak 24/25/26 for one realm: the master admin-cli token, the realm's password grant,
 * logout, JWKS and discovery, and the admin endpoints the identity exchange uses, with the status codes and
 * bodies of the real server (see shared/spec/idp-facts.md).
 *
 * @example
 * const keycloak = await startKeycloakEmulator({ version: 24, clients: [{ clientId: 'app', secret: 's' }] })
 */
export async function startKeycloakEmulator({
  version = 26,
  realm = 'pf',
  adminUser = 'admin',
  adminPassword = 'admin',
  clients = [{ clientId: 'pf-exchange', secret: 'pf-exchange-secret' }],
  roles = ['pf-user', 'org-admin'],
  unmanagedAttributes = false,
  requiredActionsQuirk = version === 24,
  adminTokenLifetimeSec = 60,
  latencyMs = 0,
  port = 0,
}: KeycloakEmulatorOptions = {}): Promise<KeycloakEmulator> {
  const key = new SigningKey()
  const users = new Map<string, EmulatedKeycloakUser>()
  const roleIds = new Map(roles.map((name) => [name, randomUUID()]))
  const sessions = new Map<string, { userId: string; sid: string; clientId: string }>()
  const newSid = (): string => randomUUID()
  let keepUnmanaged = unmanagedAttributes
  let adminTokens = 0
  let url = ''

  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })
  const issuerOf = (name: string) => `${url}/realms/${name}`

  const keepAttributes = (attributes: unknown): Record<string, string[]> => {
    if (!keepUnmanaged || typeof attributes !== 'object' || attributes === null) return {}
    return Object.fromEntries(
      Object.entries(attributes as Record<string, unknown>)
        .filter(([name]) => !MANAGED.has(name))
        .map(([name, values]) => [name, (Array.isArray(values) ? values : [values]).map(String)]),
    )
  }
  const representation = (user: EmulatedKeycloakUser) => ({
    id: user.id,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerified,
    enabled: user.enabled,
    createdTimestamp: user.createdTimestamp,
    requiredActions: user.requiredActions,
    ...(Object.keys(user.attributes).length > 0 ? { attributes: user.attributes } : {}),
  })
  const byUsername = (username: string) =>
    [...users.values()].find((u) => u.username === username.toLowerCase())
  const byEmail = (email: string) =>
    [...users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase())
  const oauthError = (res: Response, status: number, error: string, description: string) =>
    void res.status(status).json({ error, error_description: description })

  function seedUser(input: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser {
    const user: EmulatedKeycloakUser = {
      id: randomUUID(),
      enabled: true,
      emailVerified: false,
      attributes: {},
      requiredActions: [],
      realmRoles: new Set(),
      createdTimestamp: Date.now(),
      ...input,
      username: input.username.toLowerCase(),
    }
    users.set(user.id, user)
    return user
  }

  function userTokens(user: EmulatedKeycloakUser, clientId: string, scope: string, sid: string = newSid()) {
    const refreshToken = randomBytes(24).toString('base64url')
    sessions.set(refreshToken, { userId: user.id, sid, clientId })
    const first = (name: string) => user.attributes[name]?.[0]
    const claims = {
      iss: issuerOf(realm),
      sub: user.id,
      typ: 'Bearer',
      azp: clientId,
      preferred_username: user.username,
      email: user.email,
      email_verified: user.emailVerified,
      realm_access: { roles: [...user.realmRoles, `default-roles-${realm}`] },
      scope: 'openid email profile',
      // Mapped user attributes (oidc-usermodel-attribute-mapper): absent when the attribute is.
      ...(first('pfUserId') ? { pfUserId: first('pfUserId') } : {}),
      ...(first('orgId') ? { orgId: first('orgId') } : {}),
      ...(first('pfApplicationId') ? { pfApplicationId: first('pfApplicationId') } : {}),
      // session_state left the tokens in version 25, replaced by sid with the same value.
      ...(version >= 25 ? { sid } : { session_state: sid }),
    }
    return {
      access_token: key.sign(claims, 300),
      expires_in: 300,
      refresh_expires_in: 1800,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      ...(scope.split(' ').includes('openid')
        ? {
            id_token: key.sign(
              {
                iss: issuerOf(realm),
                sub: user.id,
                aud: clientId,
                email: user.email,
                preferred_username: user.username,
                sid,
              },
              300,
            ),
          }
        : {}),
      'not-before-policy': 0,
      session_state: sid,
      scope: 'openid email profile',
    }
  }

  app.post('/realms/:realm/protocol/openid-connect/token', (req: Request, res: Response) => {
    const body = req.body as Record<string, string | undefined>
    const { clientId, clientSecret } = clientCredentials(req)
    if (req.params.realm === 'master') {
      if (clientId !== 'admin-cli' || body.grant_type !== 'password')
        return oauthError(res, 400, 'unauthorized_client', 'Invalid client')
      if (body.username !== adminUser || body.password !== adminPassword)
        return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
      adminTokens += 1
      const token = key.sign(
        { iss: issuerOf('master'), sub: 'admin', azp: 'admin-cli', typ: 'Bearer' },
        adminTokenLifetimeSec,
      )
      return void res.json({
        access_token: token,
        expires_in: adminTokenLifetimeSec,
        refresh_expires_in: 1800,
        refresh_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        'not-before-policy': 0,
        session_state: randomUUID(),
        scope: 'profile email',
      })
    }
    if (req.params.realm !== realm) return void res.status(404).json({ error: 'Realm does not exist' })
    const client = clients.find((c) => c.clientId === clientId)
    if (!client || client.secret !== clientSecret)
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
    if (body.grant_type === 'refresh_token') {
      const session = sessions.get(body.refresh_token ?? '')
      const user = session && users.get(session.userId)
      if (!session || !user) return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token')
      sessions.delete(body.refresh_token ?? '')
      return void res.json(userTokens(user, client.clientId, body.scope ?? 'openid', session.sid))
    }
    if (body.grant_type !== 'password')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type')
    if (client.directAccessGrants === false)
      return oauthError(res, 400, 'unauthorized_client', 'Client not allowed for direct access grants')
    const user = byUsername(body.username ?? '')
    if (!user) return oauthError(res, 400, 'invalid_grant', 'Invalid user credentials')
    if (user.password !== body.password)
      return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
    if (!user.enabled) return oauthError(res, 400, 'invalid_grant', 'Account disabled')
    if (user.requiredActions.length > 0)
      return oauthError(res, 400, 'invalid_grant', 'Account is not fully set up')
    res.json(userTokens(user, client.clientId, body.scope ?? ''))
  })

  app.post('/realms/:realm/protocol/openid-connect/logout', (req: Request, res: Response) => {
    const { clientId, clientSecret } = clientCredentials(req)
    const client = clients.find((c) => c.clientId === clientId)
    if (!client || client.secret !== clientSecret)
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
    const token = (req.body as Record<string, string | undefined>).refresh_token
    if (!token) return oauthError(res, 400, 'invalid_request', 'No refresh token')
    if (!sessions.delete(token)) return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token')
    res.status(204).end()
  })

  app.get('/realms/:realm/protocol/openid-connect/certs', (_req, res) => void res.json(key.jwks()))
  app.get('/realms/:realm/.well-known/openid-configuration', (req, res) => {
    const issuer = issuerOf(String(req.params.realm))
    res.json({
      issuer,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
      grant_types_supported: ['authorization_code', 'password', 'refresh_token', 'client_credentials'],
    })
  })

  // Admin API: a valid master-realm admin token is required.
  app.use('/admin', (req, res, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
    const claims = token ? key.verify(token) : null
    if (!claims || claims.iss !== issuerOf('master'))
      return void res.status(401).json({ error: 'HTTP 401 Unauthorized' })
    next()
  })
  app.get(
    '/admin/serverinfo',
    (_req, res) =>
      void res.json({ systemInfo: { version: `${version}.0.5`, serverTime: new Date().toISOString() } }),
  )

  const admin = express.Router({ mergeParams: true })
  app.use(
    '/admin/realms/:realm',
    (req, res, next) =>
      req.params.realm === realm ? next() : void res.status(404).json({ error: 'Realm not found.' }),
    admin,
  )

  admin.get('/users', (req, res) => {
    const { username, email, exact } = req.query as Record<string, string | undefined>
    const same = (stored: string | undefined, wanted: string) =>
      exact === 'true'
        ? stored?.toLowerCase() === wanted.toLowerCase()
        : Boolean(stored?.toLowerCase().includes(wanted.toLowerCase()))
    const found = [...users.values()].filter(
      (u) =>
        (username === undefined || same(u.username, username)) &&
        (email === undefined || same(u.email, email)),
    )
    res.json(found.slice(0, Number(req.query.max ?? 100)).map(representation))
  })
  admin.post('/users', (req, res) => {
    const body = req.body as Record<string, unknown>
    if (typeof body.username !== 'string' || !body.username)
      return void res.status(400).json({ errorMessage: 'User name is missing' })
    if (byUsername(body.username))
      return void res.status(409).json({ errorMessage: 'User exists with same username' })
    if (typeof body.email === 'string' && byEmail(body.email))
      return void res.status(409).json({ errorMessage: 'User exists with same email' })
    const credential = (Array.isArray(body.credentials) ? body.credentials : []).find(
      (c: { type?: string }) => c.type === 'password',
    ) as { value?: string; temporary?: boolean } | undefined
    const requiredActions = Array.isArray(body.requiredActions) ? body.requiredActions.map(String) : []
    if (credential?.temporary || (credential && requiredActionsQuirk)) requiredActions.push('UPDATE_PASSWORD')
    const user = seedUser({
      username: body.username,
      email: typeof body.email === 'string' ? body.email : undefined,
      enabled: body.enabled === true,
      emailVerified: body.emailVerified === true,
      attributes: keepAttributes(body.attributes),
      requiredActions: [...new Set(requiredActions)],
      password: credential?.value,
    })
    res.status(201).location(`${url}/admin/realms/${realm}/users/${user.id}`).end()
  })
  admin.get('/users/:id', (req, res) => {
    const user = users.get(req.params.id ?? '')
    if (!user) return void res.status(404).json({ error: 'User not found' })
    res.json(representation(user))
  })
  admin.put('/users/:id', (req, res) => {
    const user = users.get(req.params.id ?? '')
    if (!user) return void res.status(404).json({ error: 'User not found' })
    const body = req.body as Record<string, unknown>
    if (
      typeof body.email === 'string' &&
      body.email.toLowerCase() !== user.email?.toLowerCase() &&
      byEmail(body.email)
    ) {
      return void res.status(409).json({ errorMessage: 'User exists with same email' })
    }
    // A body with attributes replaces the whole set; without, stored attributes are left alone.
    if (body.attributes !== undefined) user.attributes = keepAttributes(body.attributes)
    if (typeof body.email === 'string') user.email = body.email
    if (typeof body.enabled === 'boolean') user.enabled = body.enabled
    if (typeof body.emailVerified === 'boolean') user.emailVerified = body.emailVerified
    if (Array.isArray(body.requiredActions)) user.requiredActions = body.requiredActions.map(String)
    res.status(204).end()
  })
  admin.put('/users/:id/reset-password', (req, res) => {
    const user = users.get(req.params.id ?? '')
    if (!user) return void res.status(404).json({ error: 'User not found' })
    const body = req.body as { value?: string; temporary?: boolean }
    user.password = body.value
    if (body.temporary && !user.requiredActions.includes('UPDATE_PASSWORD'))
      user.requiredActions.push('UPDATE_PASSWORD')
    res.status(204).end()
  })
  admin.get('/roles/:name', (req, res) => {
    const id = roleIds.get(req.params.name ?? '')
    if (!id) return void res.status(404).json({ error: 'Could not find role' })
    res.json({
      id,
      name: req.params.name,
      description: '',
      composite: false,
      clientRole: false,
      containerId: realm,
      attributes: {},
    })
  })
  const mapRoles = (add: boolean) => (req: Request, res: Response) => {
    const user = users.get(String(req.params.id))
    if (!user) return void res.status(404).json({ error: 'User not found' })
    const wanted = Array.isArray(req.body) ? (req.body as { id?: string; name?: string }[]) : []
    // The server looks each role up by name and requires the id to match.
    if (wanted.some((role) => !role.name || roleIds.get(role.name) !== role.id))
      return void res.status(404).json({ error: 'Role not found' })
    for (const role of wanted)
      if (add) user.realmRoles.add(role.name as string)
      else user.realmRoles.delete(role.name as string)
    res.status(204).end()
  }
  admin.post('/users/:id/role-mappings/realm', mapRoles(true))
  admin.delete('/users/:id/role-mappings/realm', mapRoles(false))
  admin.get('/users/:id/role-mappings/realm', (req, res) => {
    const user = users.get(req.params.id ?? '')
    if (!user) return void res.status(404).json({ error: 'User not found' })
    res.json([...user.realmRoles].map((name) => ({ id: roleIds.get(name), name })))
  })

  const server = app.listen(port, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    ...controls,
    url,
    realm,
    version,
    issuer: issuerOf(realm),
    users,
    seedUser,
    setUnmanagedAttributes: (enabled) => void (keepUnmanaged = enabled),
    adminTokensIssued: () => adminTokens,
    stop: () =>
      new Promise<void>((resolve) => {
        controls.releaseHung()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
