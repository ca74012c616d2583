import { randomUUID } from 'node:crypto'

/** A realm role by name, or a client role as `{ client: '<clientId>', role: '<name>' }`. */
export type RoleRef = string | { client: string; role: string }

/** A realm role, or a client role (`client` is the clientId), with the roles it is a composite of. */
export interface EmulatedRole {
  id: string
  name: string
  client?: string
  composites: RoleRef[]
}

/** What holds roles: a user or a group, with realm role names and client role names by clientId. */
export interface RoleHolder {
  realmRoles: Set<string>
  clientRoles: Record<string, string[]>
}

export interface RoleSpec {
  name: string
  composites?: RoleRef[]
}

/** Role ids reached from `start`, composites expanded (RoleUtils.expandCompositeRoles). */
function expandComposites(
  start: EmulatedRole[],
  find: (ref: RoleRef) => EmulatedRole | undefined,
): Set<string> {
  const seen = new Set<string>()
  const queue = [...start]
  for (let role = queue.shift(); role; role = queue.shift()) {
    if (seen.has(role.id)) continue
    seen.add(role.id)
    for (const ref of role.composites) {
      const child = find(ref)
      if (child) queue.push(child)
    }
  }
  return seen
}

/**
 * The roles of a new realm, in the order RealmManager.java creates them (setupOfflineTokens,
 * setupAuthorizationServices, setupAccountManagement, setupRealmAdminManagement, setupBrokerService), as
 * `[client, spec]` (no client: a realm role).
 */
function builtInRoles(
  defaultRole: string,
  defaultRoles: RoleRef[] | undefined,
): [string | undefined, string | RoleSpec][] {
  const admin = (role: string) => ({ client: 'realm-management', role })
  const adminRoles = [
    'manage-users',
    'query-users',
    'query-groups',
    'query-clients',
    'view-realm',
    'manage-realm',
    'manage-clients',
    'view-identity-providers',
    'manage-identity-providers',
  ]
  const accountRoles = [
    'view-profile',
    'manage-account-links',
    'view-applications',
    'view-consent',
    'delete-account',
    'view-groups',
  ]
  return [
    [undefined, 'offline_access'],
    [undefined, 'uma_authorization'],
    [
      'account',
      { name: 'manage-account', composites: [{ client: 'account', role: 'manage-account-links' }] },
    ],
    ...accountRoles.map((name): [string, string] => ['account', name]),
    ['account', { name: 'manage-consent', composites: [{ client: 'account', role: 'view-consent' }] }],
    [
      undefined,
      {
        name: defaultRole,
        composites: defaultRoles ?? [
          'offline_access',
          'uma_authorization',
          { client: 'account', role: 'view-profile' },
          { client: 'account', role: 'manage-account' },
        ],
      },
    ],
    ...adminRoles.map((name): [string, string] => ['realm-management', name]),
    ['realm-management', { name: 'view-users', composites: [admin('query-users'), admin('query-groups')] }],
    ['realm-management', { name: 'view-clients', composites: [admin('query-clients')] }],
    [
      'realm-management',
      { name: 'realm-admin', composites: [...adminRoles, 'view-users', 'view-clients'].map(admin) },
    ],
    ['broker', 'read-token'],
  ]
}

export interface KeycloakRolesOptions {
  roles?: (string | RoleSpec)[]
  /** The realm's own clients (clientIds), beside the built-in ones. */
  clients?: string[]
  clientRoles?: Record<string, (string | RoleSpec)[]>
  defaultRoles?: RoleRef[]
}

/**
 * The realm's roles and clients as a new Keycloak realm has them (`builtInRoles`): realm roles
 * `offline_access`, `uma_authorization` and the composite `default-roles-<realm>` holding them and the
 * `account` client's `view-profile` and `manage-account` (itself a composite of `manage-account-links`); the
 * `realm-management` client's admin roles (`view-users` holds `query-users` and `query-groups`, `view-clients`
 * holds `query-clients`, `realm-admin` all of them); `broker`'s `read-token`; then the configured ones.
 */
export function createKeycloakRoles(
  realm: string,
  { roles = [], clients = [], clientRoles = {}, defaultRoles }: KeycloakRolesOptions,
) {
  const byId = new Map<string, EmulatedRole>()
  const clientIds = new Map<string, string>() // clientId → uuid
  const key = (client: string | undefined, name: string) => `${client ?? ''}\u0000${name}`
  const byKey = new Map<string, EmulatedRole>()
  const defaultRole = `default-roles-${realm}`

  function addClient(clientId: string): string {
    let id = clientIds.get(clientId)
    if (!id) clientIds.set(clientId, (id = randomUUID()))
    return id
  }
  function addRole(client: string | undefined, spec: string | RoleSpec): EmulatedRole {
    const { name, composites = [] } = typeof spec === 'string' ? { name: spec } : spec
    if (client) addClient(client)
    const existing = byKey.get(key(client, name))
    if (existing) {
      existing.composites.push(...composites)
      return existing
    }
    const role: EmulatedRole = {
      id: randomUUID(),
      name,
      ...(client ? { client } : {}),
      composites: [...composites],
    }
    byId.set(role.id, role)
    byKey.set(key(client, name), role)
    return role
  }

  for (const [client, spec] of builtInRoles(defaultRole, defaultRoles)) addRole(client, spec)
  for (const clientId of ['admin-cli', 'security-admin-console', 'account-console', ...clients])
    addClient(clientId)
  for (const spec of roles) addRole(undefined, spec)
  for (const [clientId, specs] of Object.entries(clientRoles))
    for (const spec of specs) addRole(clientId, spec)

  const find = (ref: RoleRef) =>
    typeof ref === 'string' ? byKey.get(key(undefined, ref)) : byKey.get(key(ref.client, ref.role))
  const direct = (holder: RoleHolder) => [
    ...[...holder.realmRoles].map((name) => find(name)),
    ...Object.entries(holder.clientRoles).flatMap(([client, names]) =>
      names.map((role) => find({ client, role })),
    ),
  ]

  return {
    defaultRole,
    byId: (id: string) => byId.get(id),
    find,
    addRole,
    clientUuid: (clientId: string) => clientIds.get(clientId),
    clientIdOf: (uuid: string) => [...clientIds].find(([, id]) => id === uuid)?.[0],
    clients: () => [...clientIds].map(([clientId, id]) => ({ id, clientId })),
    /** The effective roles of holders (a user and its groups), composites expanded. */
    effective(holders: RoleHolder[]): EmulatedRole[] {
      const start = holders.flatMap(direct).filter((r): r is EmulatedRole => r !== undefined)
      return [...expandComposites(start, find)].map((id) => byId.get(id)!)
    },
    /** Keycloak's brief RoleRepresentation (ModelToRepresentation.toBriefRepresentation). */
    brief: (role: EmulatedRole) => ({
      id: role.id,
      name: role.name,
      composite: role.composites.length > 0,
      clientRole: role.client !== undefined,
      containerId: role.client ? clientIds.get(role.client) : realm,
    }),
  }
}

export type KeycloakRoles = ReturnType<typeof createKeycloakRoles>
