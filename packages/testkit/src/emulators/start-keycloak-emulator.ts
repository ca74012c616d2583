// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out in the
// emulator on purpose, not imported from @pf/idp-clients: it is an independent check of the client, not its echo.
import type { AddressInfo } from 'node:net'
import express, { type Router } from 'express'
import { listening } from '../lib/listening'
import { installControls, type EmulatorControls } from './emulator-controls'
import { requireAdminToken, serverInfo } from './keycloak-admin-access'
import { createAssertionKeyStore, type AssertionKeyFetch } from './keycloak-assertion-keys'
import { createKeycloakGroupRouter } from './keycloak-group-router'
import { createKeycloakIdentityProviderRouter } from './keycloak-identity-provider-router'
import { createKeycloakOidcRouter } from './keycloak-oidc-router'
import {
  createKeycloakRealmState,
  type EmulatedGroup,
  type EmulatedIdentityProvider,
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
import { versionAtLeast } from './keycloak-search-query'
import {
  requiredOfUsers,
  type DeclaredAttribute,
  type UnmanagedAttributePolicy,
  type UserProfileMode,
} from './keycloak-user-profile'
import { createKeycloakUsersRouter } from './keycloak-users-router'

export type { AssertionKeyFetch } from './keycloak-assertion-keys'
export type {
  EmulatedCredential,
  EmulatedGroup,
  EmulatedIdentityProvider,
  EmulatedKeycloakClient,
  EmulatedKeycloakUser,
} from './keycloak-realm-state'
export type { RoleRef, RoleSpec } from './keycloak-roles'
export type { DeclaredAttribute, UnmanagedAttributePolicy, UserProfileMode } from './keycloak-user-profile'

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
   * The realm's unmanaged-attribute policy (`true` is `ADMIN_EDIT`). Off (`false`, the default of a fresh realm
   * since 24): custom attributes the profile does not declare, such as pfUserId, are dropped silently on create
   * and update; `ADMIN_VIEW` drops them too (administrators only see them); `ENABLED` keeps them, and lets
   * every user edit them in the Account Console.
   */
  unmanagedAttributes?: boolean | UnmanagedAttributePolicy
  /**
   * Custom attributes the realm's user profile declares, with their permissions (kept on admin writes when
   * `edit` includes `admin`), e.g. `{ name: 'pfUserId', permissions: { view: ['admin'], edit: ['admin'] } }`.
   */
  declaredAttributes?: DeclaredAttribute[]
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
   * Before `24.0.2` the admin API's `DELETE /sessions/{id}` ignores `isOffline`; from `26.0.6` (and `24.0.9`)
   * a search's `q` is read by another parser (`keycloak-search-query.ts`).
   */
  serverVersion?: string
  latencyMs?: number
  /** Default: a free port. */
  port?: number
  /**
   * Server features turned on (`--features=`), e.g. `['jwt-authorization-grant']` (a preview feature, off by
   * default; the JWT Authorization Grant needs a `serverVersion` of 26.5 or later, 26.5.3 for its CVE fixes).
   */
  features?: string[]
  /**
   * The realm's identity providers, e.g. `{ alias: 'pf-exchange', providerId: 'jwt-authorization-grant',
   * enabled: true, config: { issuer, jwksUrl } }`.
   */
  identityProviders?: Omit<EmulatedIdentityProvider, 'internalId'>[]
  /**
   * The public address (Keycloak's `hostname`): the realm's issuer and discovery document name it while the
   * emulator listens elsewhere, as a server behind a proxy whose admin URL is internal.
   */
  hostname?: string
  /** Least time between two loads of a JWT Authorization Grant provider's JWKS (Keycloak: 10 s). */
  jwksMinTimeBetweenRequestsSec?: number
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
  setUnmanagedAttributes(policy: boolean | UnmanagedAttributePolicy): void
  /** Number of admin tokens issued so far. */
  adminTokensIssued(): number
  /** The server features turned on (`jwt-authorization-grant`): add or delete to turn one on or off. */
  features: Set<string>
  /** The identity providers, by alias (to disable one, read its config). */
  identityProviders: Map<string, EmulatedIdentityProvider>
  /** Every load of a JWT Authorization Grant provider's JWKS (count, don't time). */
  jwksFetches(): AssertionKeyFetch[]
  /** Whether an access token was revoked (`/revoke`). */
  isRevoked(accessToken: string): boolean
  stop(): Promise<void>
}

/** The policy an `unmanagedAttributes` option stands for. */
const policyOf = (option: boolean | UnmanagedAttributePolicy) =>
  option === true ? 'ADMIN_EDIT' : option === false ? undefined : option

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
    createKeycloakIdentityProviderRouter,
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
  declaredAttributes = [],
  verifyProfile = true,
  requiredAttributes = [],
  requiredActionsQuirk = version === 24,
  adminTokenLifetimeSec = 60,
  now = Date.now,
  serverVersion = `${version}.0.5`,
  latencyMs = 0,
  port = 0,
  features = [],
  identityProviders = [],
  hostname,
  jwksMinTimeBetweenRequestsSec = 10,
}: KeycloakEmulatorOptions = {}): Promise<KeycloakEmulator> {
  // The realm's state (createKeycloakRealmState), then a router per API: OpenID Connect, and the admin API's
  // users, roles, role mappings, groups, user links and sessions.
  let policy = policyOf(unmanagedAttributes)
  let url = ''
  const state = createKeycloakRealmState({
    realm,
    version,
    roles,
    clients,
    clientRoles,
    defaultRoles,
    requiredActionsQuirk,
    serverVersion,
    // keycloak/keycloak#28129 (the 24.0 backport of #28101) gave `DELETE /sessions/{id}` its `isOffline`.
    deletesOfflineSessions: versionAtLeast(serverVersion, [24, 0, 2]),
    organizationsEnabled: () => organizationsEnabled,
    unmanagedAttributePolicy: () => policy,
    declaredAttributes: [...requiredAttributes.map(requiredOfUsers), ...declaredAttributes],
    url: () => url,
    hostname: hostname?.replace(/\/+$/, ''),
    features,
    identityProviders,
  })
  const assertionKeys = createAssertionKeyStore({
    now,
    minTimeBetweenRequestsSec: jwksMinTimeBetweenRequestsSec,
  })
  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })
  // What the user profile and Verify Profile demand: read at login (OIDC) and by the admin API.
  const profile = { userProfile, verifyProfile, requiredAttributes }
  app.use(
    createKeycloakOidcRouter(state, {
      adminUser,
      adminPassword,
      adminTokenLifetimeSec,
      now,
      assertionKeys,
      ...profile,
    }),
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
    setUnmanagedAttributes: (option) => void (policy = policyOf(option)),
    adminTokensIssued: state.adminTokensIssued,
    features: state.features,
    identityProviders: state.identityProviders,
    jwksFetches: assertionKeys.fetches,
    isRevoked: (token) => {
      const jti = state.key.verify(token)?.jti
      return typeof jti === 'string' && state.revokedTokens.has(jti)
    },
    stop: () =>
      new Promise<void>((resolve) => {
        controls.releaseHung()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
