import { randomUUID } from 'node:crypto'
import {
  createKeycloakRoles,
  type KeycloakRoles,
  type RoleHolder,
  type RoleRef,
  type RoleSpec,
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

/** A user's session, with the refresh token that names it. */
export interface EmulatedSession {
  userId: string
  sid: string
  clientId: string
  /** Epoch seconds the refresh token was issued. */
  issuedAt: number
  /** Asked with `offline_access`: an offline session, which the admin logout does not remove. */
  offline: boolean
}

/** The users, roles, groups, organizations and sessions of the emulated realm, shared by its routes. */
export interface KeycloakRealmState {
  realm: string
  version: 24 | 25 | 26
  users: Map<string, EmulatedKeycloakUser>
  roles: KeycloakRoles
  groups: Map<string, EmulatedGroup>
  organizations: Map<string, { id: string; name: string; alias: string }>
  /** By refresh token. */
  sessions: Map<string, EmulatedSession>
  requiredActionsQuirk: boolean
  organizationsEnabled(): boolean
  unmanagedAttributes(): boolean
  url(): string
  addUser(input: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser
  addGroup(input: {
    name: string
    realmRoles?: string[]
    clientRoles?: Record<string, string[]>
  }): EmulatedGroup
  byUsername(username: string): EmulatedKeycloakUser | undefined
  byEmail(email: string): EmulatedKeycloakUser | undefined
  /** The user's effective roles (its own and its groups', composites expanded). */
  effectiveRoles(user: EmulatedKeycloakUser): ReturnType<KeycloakRoles['effective']>
}

export function createKeycloakRealmState({
  realm,
  version,
  roles,
  clients,
  clientRoles,
  defaultRoles,
  requiredActionsQuirk,
  organizationsEnabled,
  unmanagedAttributes,
  url,
}: {
  realm: string
  version: 24 | 25 | 26
  roles: (string | RoleSpec)[]
  clients: string[]
  clientRoles?: Record<string, (string | RoleSpec)[]>
  defaultRoles?: RoleRef[]
  requiredActionsQuirk: boolean
  organizationsEnabled: () => boolean
  unmanagedAttributes: () => boolean
  url: () => string
}): KeycloakRealmState {
  const users = new Map<string, EmulatedKeycloakUser>()
  const groups = new Map<string, EmulatedGroup>()
  const roleModel = createKeycloakRoles(realm, { roles, clients, clientRoles, defaultRoles })
  return {
    realm,
    version,
    users,
    roles: roleModel,
    groups,
    organizations: new Map(),
    sessions: new Map(),
    requiredActionsQuirk,
    organizationsEnabled,
    unmanagedAttributes,
    url,
    addUser(input) {
      const user: EmulatedKeycloakUser = {
        id: randomUUID(),
        enabled: true,
        emailVerified: false,
        attributes: {},
        requiredActions: [],
        realmRoles: new Set([roleModel.defaultRole]),
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
      users.set(user.id, user)
      return user
    },
    addGroup({ name, realmRoles = [], clientRoles = {} }) {
      const group = { id: randomUUID(), name, realmRoles: new Set(realmRoles), clientRoles }
      groups.set(group.id, group)
      return group
    },
    byUsername: (username) => [...users.values()].find((u) => u.username === username.toLowerCase()),
    byEmail: (email) => [...users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase()),
    effectiveRoles: (user) =>
      roleModel.effective([
        user,
        ...user.groups.map((id) => groups.get(id)).filter((g): g is EmulatedGroup => g !== undefined),
      ]),
  }
}
