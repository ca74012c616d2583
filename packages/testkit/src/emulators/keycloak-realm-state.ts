import { randomUUID } from 'node:crypto'
import { SigningKey } from './signing-key'
import type { DeclaredAttribute, UnmanagedAttributePolicy } from './keycloak-user-profile'
import {
  createKeycloakRoles,
  type KeycloakRoles,
  type KeycloakRolesOptions,
  type RoleHolder,
} from './keycloak-roles'

/** A stored credential other than the password (which is `password`): `otp`, `webauthn`, … */
export interface EmulatedCredential {
  id: string
  type: string
  userLabel?: string
  createdDate: number
}

export interface EmulatedKeycloakUser extends RoleHolder {
  id: string
  username: string
  email?: string
  firstName?: string
  lastName?: string
  enabled: boolean
  emailVerified: boolean
  attributes: Record<string, string[]>
  requiredActions: string[]
  password?: string
  /** Realm role names (the realm's default roles unless given). */
  realmRoles: Set<string>
  /** Client roles by client id (e.g. `{ 'realm-management': ['manage-users'] }`). */
  clientRoles: Record<string, string[]>
  /** Ids of the groups it belongs to. */
  groups: string[]
  /** The user federation provider (LDAP, Kerberos) storing it: the component id. */
  federationLink?: string
  /** Links to identity providers (a Google or SAML login), as `/federated-identity` lists them. */
  federatedIdentities: { identityProvider: string; userId: string; userName: string }[]
  /** Credentials other than the password (second factors). */
  credentials: EmulatedCredential[]
  /** Ids of the organizations it is a member of (Keycloak 26). */
  organizations: string[]
  /** Epoch seconds: tokens issued before are stale (set by the admin logout). */
  notBefore: number
  createdTimestamp: number
}

export interface EmulatedGroup extends RoleHolder {
  id: string
  name: string
}

/** What `seedGroup` and the admin API's `POST /groups` add: a group with role mappings. */
export interface GroupInput {
  name: string
  realmRoles?: string[]
  clientRoles?: Record<string, string[]>
}

export interface EmulatedKeycloakClient {
  clientId: string
  secret: string
  directAccessGrants?: boolean
  /**
   * Client attributes (ClientRepresentation.attributes), e.g. the JWT Authorization Grant capability:
   * `oauth2.jwt.authorization.grant.enabled` = "true" and `oauth2.jwt.authorization.grant.idp` (allowed provider
   * aliases, `##`-separated) (OIDCConfigAttributes).
   */
  attributes?: Record<string, string>
  /** A public client (Client authentication off): what `GET /clients` reports; default false (confidential). */
  publicClient?: boolean
  /**
   * Its service account's `realm-management` roles (e.g. `manage-users`, `view-users`, `query-users`,
   * `view-realm`); unset: service accounts are off for the client and `client_credentials` is refused.
   */
  serviceAccountRoles?: string[]
}

/**
 * An identity provider of the realm (IdentityProviderRepresentation): for the JWT Authorization Grant, providerId
 * `jwt-authorization-grant` with `config.issuer`, `config.jwksUrl` and the grant's limits
 * (JWTAuthorizationGrantConfig: `jwtAuthorizationGrantMaxAllowedAssertionExpiration`, default 300 s;
 * `jwtAuthorizationGrantAllowedClockSkew`, default 0; `jwtAuthorizationGrantAssertionReuseAllowed`, default false;
 * `jwtAuthorizationGrantAssertionSignatureAlg`).
 */
export interface EmulatedIdentityProvider {
  alias: string
  providerId: string
  enabled: boolean
  config: Record<string, string>
  internalId: string
}

/** A user's session, with the refresh token that names it. */
export interface EmulatedSession {
  userId: string
  sid: string
  clientId: string
  /** Epoch seconds the refresh token was issued. */
  issuedAt: number
  /** Epoch milliseconds the session started (whole seconds, as Keycloak keeps `started`): refreshes keep it. */
  started: number
  /** Epoch milliseconds of its last refresh. */
  lastAccess: number
  /** Asked with `offline_access`: an offline session, which the admin logout does not remove. */
  offline: boolean
}

/**
 * The users, roles, groups, organizations, sessions, clients and signing key of the emulated realm, shared by
 * its routes.
 */
export interface KeycloakRealmState {
  realm: string
  version: 24 | 25 | 26
  key: SigningKey
  clients: EmulatedKeycloakClient[]
  /** `<url>/realms/<name>`: the issuer of a realm's tokens (`master` for the server's admins). */
  issuerOf(name: string): string
  users: Map<string, EmulatedKeycloakUser>
  roles: KeycloakRoles
  groups: Map<string, EmulatedGroup>
  organizations: Map<string, { id: string; name: string; alias: string }>
  /** By refresh token. */
  sessions: Map<string, EmulatedSession>
  /** By alias. */
  identityProviders: Map<string, EmulatedIdentityProvider>
  /** Server features turned on beside the default ones, by their option name (`jwt-authorization-grant`). */
  features: Set<string>
  /** Access tokens revoked (`/revoke`), by `jti`. */
  revokedTokens: Set<string>
  /** Single-use objects (SingleUseObjectProvider): assertion `jti`s consumed, with their epoch-seconds end. */
  singleUse: Map<string, number>
  requiredActionsQuirk: boolean
  /** What `/admin/serverinfo` reports, e.g. `26.0.5`: which parser reads a search's `q`, for one. */
  serverVersion: string
  /** `DELETE /sessions/{id}?isOffline=true` ends offline sessions (24.0.2 and later). */
  deletesOfflineSessions: boolean
  organizationsEnabled(): boolean
  /** The user profile's unmanaged-attribute policy; undefined: off (a new realm's). */
  unmanagedAttributePolicy(): UnmanagedAttributePolicy | undefined
  /** Custom attributes the user profile declares, with who may edit them. */
  declaredAttributes: DeclaredAttribute[]
  url(): string
  addUser(input: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser
  addGroup(input: GroupInput): EmulatedGroup
  /** Adds an organization (Keycloak 26); users join it through their `organizations` (ids). */
  addOrganization(name: string): { id: string; name: string; alias: string }
  byUsername(username: string): EmulatedKeycloakUser | undefined
  byEmail(email: string): EmulatedKeycloakUser | undefined
  /** The user's effective roles (its own and its groups', composites expanded). */
  effectiveRoles(user: EmulatedKeycloakUser): ReturnType<KeycloakRoles['effective']>
  /** Admin tokens (master `admin-cli` and service accounts): counted for `adminTokensIssued`. */
  adminTokenIssued(): void
  adminTokensIssued(): number
}

/** A user as stored: what the input leaves out is a new user's default (the realm's default roles). */
function newUser(
  input: Partial<EmulatedKeycloakUser> & { username: string },
  defaultRole: string,
): EmulatedKeycloakUser {
  return {
    id: randomUUID(),
    enabled: true,
    emailVerified: false,
    attributes: {},
    requiredActions: [],
    realmRoles: new Set([defaultRole]),
    clientRoles: {},
    groups: [],
    federatedIdentities: [],
    credentials: [],
    organizations: [],
    notBefore: 0,
    createdTimestamp: Date.now(),
    ...input,
    // Usernames are stored lower-cased: `Carol` and `carol` are one user.
    username: input.username.toLowerCase(),
  }
}

export interface KeycloakRealmOptions extends Omit<KeycloakRolesOptions, 'clients'> {
  realm: string
  version: 24 | 25 | 26
  clients: EmulatedKeycloakClient[]
  requiredActionsQuirk: boolean
  serverVersion: string
  deletesOfflineSessions: boolean
  organizationsEnabled: () => boolean
  unmanagedAttributePolicy: () => UnmanagedAttributePolicy | undefined
  declaredAttributes: DeclaredAttribute[]
  /** Where the emulator listens (known once it does). */
  url: () => string
  /** The public address (`hostname`), when it differs from where the emulator listens. */
  hostname?: string
  features: string[]
  identityProviders: Omit<EmulatedIdentityProvider, 'internalId'>[]
}

export function createKeycloakRealmState(options: KeycloakRealmOptions): KeycloakRealmState {
  const users = new Map<string, EmulatedKeycloakUser>()
  const groups = new Map<string, EmulatedGroup>()
  const organizations = new Map<string, { id: string; name: string; alias: string }>()
  const { realm, version, clients, url } = options
  const roleModel = createKeycloakRoles(realm, { ...options, clients: clients.map((c) => c.clientId) })
  let adminTokens = 0
  return {
    realm,
    version,
    key: new SigningKey(),
    clients,
    issuerOf: (name) => `${options.hostname ?? url()}/realms/${name}`,
    users,
    roles: roleModel,
    groups,
    organizations,
    sessions: new Map(),
    identityProviders: new Map(
      options.identityProviders.map((idp) => [idp.alias, { ...idp, internalId: randomUUID() }]),
    ),
    features: new Set(options.features),
    revokedTokens: new Set(),
    singleUse: new Map(),
    requiredActionsQuirk: options.requiredActionsQuirk,
    serverVersion: options.serverVersion,
    deletesOfflineSessions: options.deletesOfflineSessions,
    organizationsEnabled: options.organizationsEnabled,
    unmanagedAttributePolicy: options.unmanagedAttributePolicy,
    declaredAttributes: options.declaredAttributes,
    url,
    addUser(input) {
      const user = newUser(input, roleModel.defaultRole)
      users.set(user.id, user)
      return user
    },
    addGroup({ name, realmRoles = [], clientRoles = {} }) {
      const group = { id: randomUUID(), name, realmRoles: new Set(realmRoles), clientRoles }
      groups.set(group.id, group)
      return group
    },
    addOrganization(name) {
      const org = { id: randomUUID(), name, alias: name.toLowerCase().replace(/\W+/g, '-') }
      organizations.set(org.id, org)
      return org
    },
    byUsername: (username) => [...users.values()].find((u) => u.username === username.toLowerCase()),
    byEmail: (email) => [...users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase()),
    effectiveRoles: (user) =>
      roleModel.effective([
        user,
        ...user.groups.map((id) => groups.get(id)).filter((g): g is EmulatedGroup => g !== undefined),
      ]),
    adminTokenIssued: () => void (adminTokens += 1),
    adminTokensIssued: () => adminTokens,
  }
}
