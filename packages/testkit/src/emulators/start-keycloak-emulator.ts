// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out in the
// emulator on purpose, not imported from @pf/idp-clients: it is an independent check of the client, not its echo.
import type { AddressInfo } from 'node:net'
import express, { type Router } from 'express'
import { listening } from '../lib/listening'
import { installControls, type EmulatorControls } from './emulator-controls'
import { requireAdminToken, serverInfo } from './keycloak-admin-access'
import { createKeycloakGroupRouter } from './keycloak-group-router'
import { createKeycloakOidcRouter } from './keycloak-oidc-router'
import {
  createKeycloakRealmState,
  type EmulatedGroup,
  type EmulatedKeycloakClient,
  type EmulatedKeycloakUser,
  type EmulatedSession,
  type GroupInput,
  type KeycloakRealmState,
} from './keycloak-realm-state'
import { createKeycloakRoleMappingRouter } from './keycloak-role-mapping-router'
import { createKeycloakRealmSettingsRouter, type RealmSettings } from './keycloak-realm-settings-router'
import { createKeycloakRoleRouter } from './keycloak-role-router'
import type { RoleRef, RoleSpec } from './keycloak-roles'
import { createKeycloakSessionsRouter } from './keycloak-sessions-router'
import { createKeycloakUserLinksRouter } from './keycloak-user-links-router'
import type { UserProfileMode } from './keycloak-user-profile'
import { createKeycloakUsersRouter } from './keycloak-users-router'

export type {
  EmulatedCredential,
  EmulatedGroup,
  EmulatedKeycloakClient,
  EmulatedKeycloakUser,
} from './keycloak-realm-state'
export type { RoleRef, RoleSpec } from './keycloak-roles'
export type { UserProfileMode } from './keycloak-user-profile'

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
  /** The Verify Profile required action (on in a new realm): checks the user profile at every login. */
  verifyProfile?: boolean
  /**
   * Custom attributes the realm's user profile declares and requires of users (role `user`), e.g. a phone
   * number: Verify Profile refuses the login of a user without them. Default none.
   */
  requiredAttributes?: string[]
  /** Version 24's quirk: users created with a non-temporary password keep `UPDATE_PASSWORD`. Default: version 24. */
  requiredActionsQuirk?: boolean
  adminTokenLifetimeSec?: number
  /** For tests: the clock admin tokens are issued by (`iat`, hence `exp`), to share with a client's clock. */
  now?: () => number
  /**
   * What `/admin/serverinfo` reports (default `<version>.0.5`), e.g. `23.0.7` to try an unsupported server.
   * Before `24.0.2` the admin API's `DELETE /sessions/{id}` ignores `isOffline`.
   */
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
  seedGroup(group: GroupInput): EmulatedGroup
  /** Adds an organization (Keycloak 26); users join it through their `organizations` (ids). */
  seedOrganization(name: string): { id: string; name: string; alias: string }
  /** Sessions (by refresh token) of a user, offline ones included. */
  sessionsOf(userId: string): EmulatedSession[]
  setUnmanagedAttributes(enabled: boolean): void
  /** Number of admin tokens issued so far. */
  adminTokensIssued(): number
  stop(): Promise<void>
}

/** keycloak/keycloak#28129 (the 24.0 backport of #28101) gave `DELETE /sessions/{id}` its `isOffline`: 24.0.2. */
function deletesOfflineSessions(serverVersion: string): boolean {
  const [major = 0, minor = 0, patch = 0] = serverVersion.split('.').map((part) => Number.parseInt(part, 10))
  return major > 24 || (major === 24 && (minor > 0 || patch >= 2))
}

/**
 * The admin API (`/admin`): the access check, the server's version, and the routers of the realm's admin
 * resources (`/admin/realms/{realm}`).
 */
function createAdminApi(state: KeycloakRealmState, serverVersion: string, settings: RealmSettings): Router {
  const admin = express.Router()
  admin.use(requireAdminToken(state))
  admin.get('/serverinfo', serverInfo(state, serverVersion))
  const realmRouters = [
    (realmState: KeycloakRealmState) => createKeycloakRealmSettingsRouter(realmState, settings),
    createKeycloakUsersRouter,
    createKeycloakRoleRouter,
    createKeycloakRoleMappingRouter,
    createKeycloakGroupRouter,
    createKeycloakUserLinksRouter,
    createKeycloakSessionsRouter,
  ]
  admin.use(
    '/realms/:realm',
    (req, res, next) =>
      req.params.realm === state.realm ? next() : void res.status(404).json({ error: 'Realm not found.' }),
    ...realmRouters.map((create) => create(state)),
  )
  return admin
}

/**
 * An HTTP emulator of Keycloak 24/25/26 for one realm: the master admin-cli token, the realm's password,
 * refresh-token and client-credentials (service account) grants, logout, JWKS and discovery, and the admin
 * endpoints the identity exchange uses, with the status codes and bodies of the real server (see the spec's
 * idp-facts.md, and the router of each API).
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
  verifyProfile = true,
  requiredAttributes = [],
  requiredActionsQuirk = version === 24,
  adminTokenLifetimeSec = 60,
  now = Date.now,
  serverVersion = `${version}.0.5`,
  latencyMs = 0,
  port = 0,
}: KeycloakEmulatorOptions = {}): Promise<KeycloakEmulator> {
  // The realm's state (createKeycloakRealmState), then a router per API: OpenID Connect, and the admin API's
  // users, roles, role mappings, groups, user links and sessions.
  let keepUnmanaged = unmanagedAttributes
  let url = ''
  const state = createKeycloakRealmState({
    realm,
    version,
    roles,
    clients,
    clientRoles,
    defaultRoles,
    requiredActionsQuirk,
    deletesOfflineSessions: deletesOfflineSessions(serverVersion),
    organizationsEnabled: () => organizationsEnabled,
    unmanagedAttributes: () => keepUnmanaged,
    url: () => url,
  })
  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })
  // What the user profile and Verify Profile demand: read at login (OIDC) and by the admin API.
  const profile = { userProfile, verifyProfile, requiredAttributes }
  app.use(
    createKeycloakOidcRouter(state, { adminUser, adminPassword, adminTokenLifetimeSec, now, ...profile }),
  )
  app.use('/admin', createAdminApi(state, serverVersion, profile))

  const server = await listening(app.listen(port, '127.0.0.1'))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    ...controls,
    url,
    realm,
    version,
    issuer: state.issuerOf(realm),
    users: state.users,
    seedUser: (input) => state.addUser(input),
    seedGroup: (group) => state.addGroup(group),
    seedOrganization: (name) => state.addOrganization(name),
    sessionsOf: (userId) => [...state.sessions.values()].filter((session) => session.userId === userId),
    setUnmanagedAttributes: (enabled) => void (keepUnmanaged = enabled),
    adminTokensIssued: state.adminTokensIssued,
    stop: () =>
      new Promise<void>((resolve) => {
        controls.releaseHung()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
