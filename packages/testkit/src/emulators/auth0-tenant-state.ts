import { randomBytes } from 'node:crypto'
import { createActionCache, type ActionCache, type EmulatedAuth0Action } from './auth0-actions'
import { createIpThrottle, type IpThrottle, type IpThrottleStage } from './auth0-ip-throttle'
import type { EmulatedPostLoginAction } from './auth0-post-login'
import { SigningKey } from './signing-key'

export interface Auth0Permission {
  permission_name: string
  resource_server_identifier: string
}

export interface EmulatedAuth0User {
  user_id: string
  email: string
  email_verified: boolean
  password: string
  connection: string
  app_metadata: Record<string, unknown>
  roles: Set<string>
  created_at: string
  /** Blocked by an administrator: it cannot sign in. */
  blocked: boolean
  /** Accounts of other connections linked into this one (account linking), beyond its own identity. */
  linkedIdentities: { connection: string; provider: string; user_id: string; isSocial: boolean }[]
  /** Enrolled authentication methods beyond the password (`totp`, `phone`, `webauthn-roaming`, …). */
  authenticationMethods: { id: string; type: string; confirmed: boolean; created_at: string }[]
  /** Ids of the organizations it is a member of. */
  organizations: string[]
  /** Permissions given to the user directly, not through a role. */
  permissions: Auth0Permission[]
  /** ISO 8601 of the last sign-in (every password grant; refreshes do not count); unset before the first. */
  last_login?: string
  logins_count?: number
}

/** A refresh token the tenant issued, as the Management API describes it (the secret itself is the map key). */
export interface EmulatedRefreshToken {
  id: string
  userId: string
  clientId: string
  scope: string
  audience?: string
  sessionId?: string
  created_at: string
}

/** A session of the tenant's session layer (a browser login); the password grant opens none. */
export interface EmulatedAuth0Session {
  id: string
  user_id: string
  created_at: string
}

/** A connection of the tenant: a database connection (passwords) unless `database: false` (social, enterprise). */
export interface Auth0ConnectionSpec {
  name: string
  database?: boolean
  /** The applications it is enabled for (default: every application of the tenant). */
  enabledClients?: string[]
}

/** An application: `scopes` is what its machine-to-machine grant on the Management API allows. */
export interface EmulatedAuth0Client {
  clientId: string
  clientSecret: string
  /** Its grant types (Application → Advanced settings → Grant Types); default `DEFAULT_GRANT_TYPES`. */
  grantTypes?: string[]
  scopes?: string[]
  /** First-party (default true) and OIDC-conformant (default true): Custom Token Exchange requires both. */
  firstParty?: boolean
  oidcConformant?: boolean
  /** `token_exchange.allow_any_profile_of_type` (`["custom_authentication"]` lets it use any profile). */
  tokenExchange?: { allow_any_profile_of_type?: string[] }
  /** "Trust Token Endpoint IP Header": `auth0-forwarded-for` is the end user's address (default false). */
  trustTokenEndpointIpHeader?: boolean
}

/** A Token Exchange Profile as the Management API answers it. */
export interface EmulatedTokenExchangeProfile {
  id: string
  name: string
  subject_token_type: string
  action_id: string
  type: 'custom_authentication'
  created_at: string
  updated_at: string
}

/** The grant types of an application that does not set its own: a regular web application's, password included. */
export const DEFAULT_GRANT_TYPES = ['authorization_code', 'client_credentials', 'password', 'refresh_token']

export interface EmulatedAuth0Role {
  id: string
  name: string
  permissions?: Auth0Permission[]
}

/** What the user search sees of a user: a copy that becomes visible `searchLagMs` after each write. */
export type SearchableUser = Pick<EmulatedAuth0User, 'user_id' | 'email' | 'connection' | 'app_metadata'>
interface SearchVersion {
  visibleAt: number
  user: SearchableUser
}

/** The users, sessions, refresh tokens, roles, connections and keys of the emulated tenant, shared by its routes. */
export interface Auth0TenantState {
  domain: string
  /** `https://{domain}/`: the issuer of every token. */
  issuer: string
  /** `https://{domain}/api/v2/`: the audience of management tokens. */
  managementAudience: string
  /** Where the post-login Action writes custom claims. */
  namespace: string
  key: SigningKey
  clients: EmulatedAuth0Client[]
  users: Map<string, EmulatedAuth0User>
  /** By the token itself. */
  refreshTokens: Map<string, EmulatedRefreshToken>
  sessions: Map<string, EmulatedAuth0Session>
  roles: EmulatedAuth0Role[]
  organizations: Map<string, { id: string; name: string; display_name: string }>
  connectionNames: string[]
  /** The connection the plain `password` grant signs in against; null: none configured. */
  defaultDirectory: string | null
  isDatabase(connection: string): boolean
  /** The Enterprise plan's session and refresh-token endpoints. */
  sessionEndpoints(): boolean
  searchLag(): number
  setSearchLag(ms: number): void
  addUser(
    input: Partial<EmulatedAuth0User> & { email: string; password: string },
    searchDelayMs: number,
  ): EmulatedAuth0User
  /** Records what the search will see of the user once `delayMs` (default: the search lag) has passed. */
  indexForSearch(user: EmulatedAuth0User, delayMs?: number): void
  /** What the search sees of a user now. */
  searchable(userId: string): SearchableUser | undefined
  deleteUser(userId: string): void
  /** A user as the Management API answers it. */
  view(user: EmulatedAuth0User): Record<string, unknown>
  roleNames(user: EmulatedAuth0User): string[]
  /** The Management API's client-credentials grant: counted for `managementTokensIssued`. */
  managementTokenIssued(): void
  managementTokensIssued(): number
  /** Whether connection `name` is enabled for application `clientId`. */
  enabledFor(name: string, clientId: string): boolean
  /** By id (`tep_…`). */
  tokenExchangeProfiles: Map<string, EmulatedTokenExchangeProfile>
  /** By id. */
  actions: Map<string, EmulatedAuth0Action>
  /** `api.cache` of the custom-token-exchange trigger. */
  exchangeCache: ActionCache
  ipThrottle: IpThrottle
  /** Custom Token Exchange Action runs so far. */
  exchangeRuns: { count: number }
  /** The Login flow's post-login Action, run from its file; none: the claims the repository's writes. */
  postLoginAction?: EmulatedPostLoginAction
}

export interface Auth0TenantOptions {
  domain: string
  clients: EmulatedAuth0Client[]
  connections: (string | Auth0ConnectionSpec)[]
  defaultConnection?: string | null
  roles: EmulatedAuth0Role[]
  organizations: { id: string; name: string }[]
  sessionEndpoints: boolean
  namespace: string
  searchLagMs: number
  actions?: EmulatedAuth0Action[]
  tokenExchangeProfiles?: Pick<EmulatedTokenExchangeProfile, 'name' | 'subject_token_type' | 'action_id'>[]
  suspiciousIpThrottling?: Partial<IpThrottleStage>
  postLoginAction?: EmulatedPostLoginAction
}

/** A new refresh-token or session id in the tenant's style. */
export const credentialId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`

/** The user search's index: eventually consistent, each write visible only after the lag (`searchLagMs`). */
function createSearchIndex(searchLagMs: number) {
  const versions = new Map<string, SearchVersion[]>()
  let lag = searchLagMs
  return {
    searchLag: () => lag,
    setSearchLag: (ms: number) => void (lag = ms),
    indexForSearch(user: EmulatedAuth0User, delayMs = lag) {
      const known = versions.get(user.user_id) ?? []
      const now = Date.now()
      // Keep the newest version already visible, and the pending ones.
      const visible = known.filter((v) => v.visibleAt <= now).at(-1)
      const pending = known.filter((v) => v.visibleAt > now)
      const snapshot = { ...user, app_metadata: structuredClone(user.app_metadata) }
      versions.set(user.user_id, [
        ...(visible ? [visible] : []),
        ...pending,
        { visibleAt: now + delayMs, user: snapshot },
      ])
    },
    searchable: (userId: string) =>
      versions
        .get(userId)
        ?.filter((v) => v.visibleAt <= Date.now())
        .at(-1)?.user,
    forget: (userId: string) => void versions.delete(userId),
  }
}

/** A user as the Management API v2 answers it: its own identity first, then the linked ones. */
function viewOf(user: EmulatedAuth0User) {
  return {
    user_id: user.user_id,
    email: user.email,
    email_verified: user.email_verified,
    app_metadata: user.app_metadata,
    identities: [
      {
        connection: user.connection,
        provider: 'auth0',
        user_id: user.user_id.split('|')[1],
        isSocial: false,
      },
      ...user.linkedIdentities,
    ],
    ...(user.blocked ? { blocked: true } : {}),
    ...(user.last_login ? { last_login: user.last_login, logins_count: user.logins_count ?? 0 } : {}),
    created_at: user.created_at,
    updated_at: new Date().toISOString(),
  }
}

export function createAuth0TenantState(options: Auth0TenantOptions): Auth0TenantState {
  const { domain, clients, roles, namespace, defaultConnection } = options
  const users = new Map<string, EmulatedAuth0User>()
  const connections = options.connections.map((c) => (typeof c === 'string' ? { name: c } : c))
  const connectionNames = connections.map((c) => c.name)
  const index = createSearchIndex(options.searchLagMs)
  let managementTokens = 0
  return {
    domain,
    issuer: `https://${domain}/`,
    managementAudience: `https://${domain}/api/v2/`,
    namespace,
    key: new SigningKey(),
    clients,
    users,
    refreshTokens: new Map(),
    sessions: new Map(),
    roles,
    organizations: new Map(options.organizations.map((org) => [org.id, { ...org, display_name: org.name }])),
    connectionNames,
    defaultDirectory: defaultConnection === undefined ? (connections[0]?.name ?? null) : defaultConnection,
    isDatabase: (name) => connections.find((c) => c.name === name)?.database !== false,
    sessionEndpoints: () => options.sessionEndpoints,
    searchLag: index.searchLag,
    setSearchLag: index.setSearchLag,
    indexForSearch: index.indexForSearch,
    searchable: index.searchable,
    addUser(input, searchDelayMs) {
      const user: EmulatedAuth0User = {
        user_id: `auth0|${randomBytes(12).toString('hex')}`,
        email_verified: false,
        connection: connectionNames[0] ?? 'Username-Password-Authentication',
        app_metadata: {},
        roles: new Set(),
        created_at: new Date().toISOString(),
        blocked: false,
        linkedIdentities: [],
        authenticationMethods: [],
        organizations: [],
        permissions: [],
        ...input,
        email: input.email.toLowerCase(),
      }
      users.set(user.user_id, user)
      index.indexForSearch(user, searchDelayMs)
      return user
    },
    deleteUser(userId) {
      users.delete(userId)
      index.forget(userId)
    },
    view: viewOf,
    roleNames: (user) => roles.filter((r) => user.roles.has(r.id)).map((r) => r.name),
    managementTokenIssued: () => void (managementTokens += 1),
    managementTokensIssued: () => managementTokens,
    enabledFor: (name, clientId) => {
      const enabled = connections.find((c) => c.name === name)?.enabledClients
      return enabled === undefined || enabled.includes(clientId)
    },
    tokenExchangeProfiles: new Map(
      (options.tokenExchangeProfiles ?? []).map((profile) => {
        const id = credentialId('tep')
        const at = new Date().toISOString()
        return [id, { id, ...profile, type: 'custom_authentication', created_at: at, updated_at: at }]
      }),
    ),
    actions: new Map((options.actions ?? []).map((action) => [action.id, action])),
    exchangeCache: createActionCache(),
    ipThrottle: createIpThrottle(options.suspiciousIpThrottling),
    exchangeRuns: { count: 0 },
    postLoginAction: options.postLoginAction,
  }
}
