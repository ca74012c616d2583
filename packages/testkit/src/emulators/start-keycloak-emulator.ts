// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out here on
// purpose, not imported from @pf/idp-clients: the emulator is an independent check of the client, not its echo.
import { randomBytes, randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import express, { type Request, type Response } from 'express'
import { clientCredentials } from './client-auth'
import { installControls, type EmulatorControls } from './emulator-controls'
import { createKeycloakAdminRouter } from './keycloak-admin-router'
import {
  createKeycloakRealmState,
  type EmulatedGroup,
  type EmulatedKeycloakUser,
  type EmulatedSession,
} from './keycloak-realm-state'
import { createKeycloakRoleRouter, type RoleVisibility } from './keycloak-role-router'
import type { RoleRef, RoleSpec } from './keycloak-roles'
import { createKeycloakUserLinksRouter } from './keycloak-user-links-router'
import { missingAtLogin, type UserProfileMode } from './keycloak-user-profile'
import { SigningKey } from './signing-key'

export type { EmulatedCredential, EmulatedGroup, EmulatedKeycloakUser } from './keycloak-realm-state'
export type { RoleRef, RoleSpec } from './keycloak-roles'
export type { UserProfileMode } from './keycloak-user-profile'

export interface EmulatedKeycloakClient {
  clientId: string
  secret: string
  directAccessGrants?: boolean
  /**
   * Its service account's `realm-management` roles (e.g. `manage-users`, `view-users`, `query-users`,
   * `view-realm`); unset: service accounts are off for the client and `client_credentials` is refused.
   */
  serviceAccountRoles?: string[]
}

export interface KeycloakEmulatorOptions {
  version?: 24 | 25 | 26
  realm?: string
  adminUser?: string
  adminPassword?: string
  clients?: EmulatedKeycloakClient[]
  /**
   * Realm roles beside the built-in ones (`offline_access`, `uma_authorization`, `default-roles-<realm>`), as
   * names or `{ name, composites }`; default `pf-user` and `org-admin`. Naming a built-in role adds composites.
   */
  roles?: (string | RoleSpec)[]
  /** Client roles by clientId, beside the built-in clients' (`account`, `realm-management`, `broker`). */
  clientRoles?: Record<string, (string | RoleSpec)[]>
  /**
   * What `default-roles-<realm>` holds (Realm settings → User registration → Default roles); default a new
   * realm's: `offline_access`, `uma_authorization`, `account`'s `view-profile` and `manage-account`.
   */
  defaultRoles?: RoleRef[]
  /** The realm's `organizationsEnabled` (Keycloak 26; off in a new realm). */
  organizationsEnabled?: boolean
  /** The realm's user profile (default: Keycloak's stock profile, names required at login). */
  userProfile?: UserProfileMode
  /**
   * The realm's unmanaged-attribute policy. Off (the default of a fresh realm since 24): custom attributes such
   * as pfUserId are dropped silently on create and update.
   */
  unmanagedAttributes?: boolean
  /** Version 24's quirk: users created with a non-temporary password keep `UPDATE_PASSWORD`. Default: version 24. */
  requiredActionsQuirk?: boolean
  adminTokenLifetimeSec?: number
  /** For tests: the clock admin tokens are issued by (`iat`, hence `exp`), to share with a client's clock. */
  now?: () => number
  /** What `/admin/serverinfo` reports (default `<version>.0.5`), e.g. `23.0.7` to try an unsupported server. */
  serverVersion?: string
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
  /**
   * Adds a user directly (another system's user, for instance): no profile checks, the realm's default
   * roles unless `realmRoles` is given.
   */
  seedUser(user: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser
  /** Adds a group with role mappings; users join it through their `groups` (ids). */
  seedGroup(group: {
    name: string
    realmRoles?: string[]
    clientRoles?: Record<string, string[]>
  }): EmulatedGroup
  /** Adds an organization (Keycloak 26); users join it through their `organizations` (ids). */
  seedOrganization(name: string): { id: string; name: string; alias: string }
  /** Sessions (by refresh token) of a user, offline ones included. */
  sessionsOf(userId: string): EmulatedSession[]
  setUnmanagedAttributes(enabled: boolean): void
  /** Number of admin tokens issued so far. */
  adminTokensIssued(): number
  stop(): Promise<void>
}

/**
 * An HTTP emulator of Keycloak 24/25/26 for one realm: the master admin-cli token, the realm's password,
 * refresh-token and client-credentials (service account) grants, logout, JWKS and discovery, and the admin
 * endpoints the identity exchange uses, with the status codes and bodies of the real server (see
 * shared/spec/idp-facts.md and `createKeycloakAdminRouter`).
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
  clientRoles,
  defaultRoles,
  organizationsEnabled = false,
  userProfile = 'default',
  unmanagedAttributes = false,
  requiredActionsQuirk = version === 24,
  adminTokenLifetimeSec = 60,
  now = Date.now,
  serverVersion = `${version}.0.5`,
  latencyMs = 0,
  port = 0,
}: KeycloakEmulatorOptions = {}): Promise<KeycloakEmulator> {
  const key = new SigningKey()
  let keepUnmanaged = unmanagedAttributes
  let adminTokens = 0
  let url = ''
  const state = createKeycloakRealmState({
    realm,
    version,
    roles,
    clients: clients.map((c) => c.clientId),
    clientRoles,
    defaultRoles,
    requiredActionsQuirk,
    organizationsEnabled: () => organizationsEnabled,
    unmanagedAttributes: () => keepUnmanaged,
    url: () => url,
  })
  const { users, sessions } = state

  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })
  const issuerOf = (name: string) => `${url}/realms/${name}`
  const oauthError = (res: Response, status: number, error: string, description: string) =>
    void res.status(status).json({ error, error_description: description })

  function userTokens(
    user: EmulatedKeycloakUser,
    clientId: string,
    scope: string,
    { sid = randomUUID() as string, offline = scope.split(' ').includes('offline_access') } = {},
  ) {
    const refreshToken = randomBytes(24).toString('base64url')
    sessions.set(refreshToken, {
      userId: user.id,
      sid,
      clientId,
      issuedAt: Math.floor(Date.now() / 1000),
      offline,
    })
    const first = (name: string) => user.attributes[name]?.[0]
    // Tokens carry the effective roles: default-roles-<realm> expands to offline_access, uma_authorization
    // and the account client's roles.
    const effective = state.effectiveRoles(user)
    const clientRoles: Record<string, { roles: string[] }> = {}
    for (const role of effective.filter((r) => r.client))
      (clientRoles[role.client!] ??= { roles: [] }).roles.push(role.name)
    const claims = {
      iss: issuerOf(realm),
      sub: user.id,
      typ: 'Bearer',
      azp: clientId,
      preferred_username: user.username,
      email: user.email,
      email_verified: user.emailVerified,
      ...(user.firstName ? { given_name: user.firstName } : {}),
      ...(user.lastName ? { family_name: user.lastName } : {}),
      realm_access: { roles: effective.filter((r) => !r.client).map((r) => r.name) },
      ...(Object.keys(clientRoles).length > 0 ? { resource_access: clientRoles } : {}),
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

  function masterToken(req: Request, res: Response) {
    const body = req.body as Record<string, string | undefined>
    const { clientId } = clientCredentials(req)
    if (clientId !== 'admin-cli' || body.grant_type !== 'password')
      return oauthError(res, 400, 'unauthorized_client', 'Invalid client')
    if (body.username !== adminUser || body.password !== adminPassword)
      return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
    adminTokens += 1
    const token = key.sign(
      {
        iss: issuerOf('master'),
        sub: 'admin',
        azp: 'admin-cli',
        typ: 'Bearer',
        iat: Math.floor(now() / 1000),
      },
      adminTokenLifetimeSec,
    )
    res.json({
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

  app.post('/realms/:realm/protocol/openid-connect/token', (req: Request, res: Response) => {
    if (req.params.realm === 'master') return masterToken(req, res)
    const body = req.body as Record<string, string | undefined>
    const { clientId, clientSecret } = clientCredentials(req)
    if (req.params.realm !== realm) return void res.status(404).json({ error: 'Realm does not exist' })
    const client = clients.find((c) => c.clientId === clientId)
    if (!client || client.secret !== clientSecret)
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
    if (body.grant_type === 'client_credentials') {
      if (!client.serviceAccountRoles)
        return oauthError(res, 401, 'unauthorized_client', 'Client not enabled to retrieve service account')
      adminTokens += 1
      const token = key.sign(
        {
          iss: issuerOf(realm),
          sub: `service-account-${client.clientId}`,
          iat: Math.floor(now() / 1000),
          azp: client.clientId,
          typ: 'Bearer',
          resource_access: { 'realm-management': { roles: client.serviceAccountRoles } },
        },
        300,
      )
      return void res.json({
        access_token: token,
        expires_in: 300,
        refresh_expires_in: 0,
        token_type: 'Bearer',
        'not-before-policy': 0,
        scope: 'profile email',
      })
    }
    if (body.grant_type === 'refresh_token') {
      // TokenManager.refreshAccessToken: the session must be alive, the token not older than the user's
      // not-before (which the admin logout sets).
      const session = sessions.get(body.refresh_token ?? '')
      const user = session && users.get(session.userId)
      if (!session || !user) return oauthError(res, 400, 'invalid_grant', 'Session not active')
      if (session.issuedAt < user.notBefore) return oauthError(res, 400, 'invalid_grant', 'Stale token')
      sessions.delete(body.refresh_token ?? '')
      return void res.json(
        userTokens(user, client.clientId, body.scope ?? 'openid', {
          sid: session.sid,
          offline: session.offline,
        }),
      )
    }
    if (body.grant_type !== 'password')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type')
    if (client.directAccessGrants === false)
      return oauthError(res, 400, 'unauthorized_client', 'Client not allowed for direct access grants')
    // The direct-grant flow: ValidateUsername (unknown: 401; disabled: 400), ValidatePassword (401), then
    // required actions, Verify Profile among them (400 "Account is not fully set up").
    const user = state.byUsername(body.username ?? '')
    if (!user) return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
    if (!user.enabled) return oauthError(res, 400, 'invalid_grant', 'Account disabled')
    if (user.password === undefined || user.password !== body.password)
      return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
    if (user.requiredActions.length > 0 || missingAtLogin(userProfile, user).length > 0)
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

  // Admin API: a master-realm admin token (any realm), or a realm service account's token (its own realm
  // only) with the realm-management role the call needs.
  app.use('/admin', (req, res, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
    const claims = token ? key.verify(token) : null
    if (!claims) return void res.status(401).json({ error: 'HTTP 401 Unauthorized' })
    if (claims.iss === issuerOf('master')) return next()
    const ownRealm = req.path === `/realms/${realm}` || req.path.startsWith(`/realms/${realm}/`)
    if (claims.iss !== issuerOf(realm) || !ownRealm)
      return void res.status(403).json({ error: 'HTTP 403 Forbidden' })
    // The token's realm-management roles, composites expanded (realm-admin holds them all).
    const granted = new Set(
      state.roles
        .effective([
          {
            realmRoles: new Set(),
            clientRoles: {
              'realm-management':
                (claims.resource_access as Record<string, { roles?: string[] }> | undefined)?.[
                  'realm-management'
                ]?.roles ?? [],
            },
          },
        ])
        .map((role) => role.name),
    )
    const path = req.path.slice(`/realms/${realm}`.length)
    const needed = /^(\/roles(-by-id)?\/|\/?$)/.test(path)
      ? ['view-realm', 'manage-realm']
      : path.startsWith('/clients')
        ? ['view-clients', 'manage-clients', 'query-clients']
        : path.startsWith('/organizations')
          ? ['manage-realm'] // OrganizationsResource: auth.realm().requireManageRealm()
          : req.method === 'GET'
            ? ['view-users', 'manage-users', 'query-users']
            : ['manage-users']
    if (!needed.some((role) => granted.has(role)))
      return void res.status(403).json({ error: 'HTTP 403 Forbidden' })
    // RolePermissions.canView: realm roles need view-realm (or manage-realm), client roles view-clients (or
    // manage-clients); role mappings hide what the caller may not view.
    res.locals.roleVisibility = {
      realmRoles: granted.has('view-realm') || granted.has('manage-realm'),
      clientRoles: granted.has('view-clients') || granted.has('manage-clients'),
    } satisfies RoleVisibility
    next()
  })
  // (unconfirmed) Only the master realm's admins read the server's version; others are refused.
  app.get('/admin/serverinfo', (req, res) => {
    const claims = key.verify(/^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '')
    if (claims?.iss !== issuerOf('master')) return void res.status(403).json({ error: 'HTTP 403 Forbidden' })
    res.json({ systemInfo: { version: serverVersion, serverTime: new Date().toISOString() } })
  })
  app.use(
    '/admin/realms/:realm',
    (req, res, next) =>
      req.params.realm === realm ? next() : void res.status(404).json({ error: 'Realm not found.' }),
    createKeycloakAdminRouter(state),
    createKeycloakRoleRouter(state),
    createKeycloakUserLinksRouter(state),
  )

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
    seedUser: (input) => state.addUser(input),
    seedGroup: (group) => state.addGroup(group),
    seedOrganization: (name) => {
      const org = { id: randomUUID(), name, alias: name.toLowerCase().replace(/\W+/g, '-') }
      state.organizations.set(org.id, org)
      return org
    },
    sessionsOf: (userId) => [...sessions.values()].filter((session) => session.userId === userId),
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
