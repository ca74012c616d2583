import { randomUUID } from 'node:crypto'

export interface EmulatedKeycloakUser {
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
  realmRoles: Set<string>
  /** Client roles by client id (e.g. `{ 'realm-management': ['manage-users'] }`). */
  clientRoles: Record<string, string[]>
  createdTimestamp: number
}

/** The users and roles of the emulated realm, shared by its token and admin routes. */
export interface KeycloakRealmState {
  realm: string
  users: Map<string, EmulatedKeycloakUser>
  roleIds: Map<string, string>
  requiredActionsQuirk: boolean
  unmanagedAttributes(): boolean
  url(): string
  addUser(input: Partial<EmulatedKeycloakUser> & { username: string }): EmulatedKeycloakUser
  byUsername(username: string): EmulatedKeycloakUser | undefined
  byEmail(email: string): EmulatedKeycloakUser | undefined
}

export function createKeycloakRealmState({
  realm,
  roles,
  requiredActionsQuirk,
  unmanagedAttributes,
  url,
}: {
  realm: string
  roles: string[]
  requiredActionsQuirk: boolean
  unmanagedAttributes: () => boolean
  url: () => string
}): KeycloakRealmState {
  const users = new Map<string, EmulatedKeycloakUser>()
  const roleIds = new Map([...roles, `default-roles-${realm}`].map((name) => [name, randomUUID()]))
  return {
    realm,
    users,
    roleIds,
    requiredActionsQuirk,
    unmanagedAttributes,
    url,
    addUser(input) {
      const user: EmulatedKeycloakUser = {
        id: randomUUID(),
        enabled: true,
        emailVerified: false,
        attributes: {},
        requiredActions: [],
        realmRoles: new Set([`default-roles-${realm}`]),
        clientRoles: {},
        createdTimestamp: Date.now(),
        ...input,
        // Usernames are stored lower-cased: `Carol` and `carol` are one user.
        username: input.username.toLowerCase(),
      }
      users.set(user.id, user)
      return user
    },
    byUsername: (username) => [...users.values()].find((u) => u.username === username.toLowerCase()),
    byEmail: (email) => [...users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase()),
  }
}
