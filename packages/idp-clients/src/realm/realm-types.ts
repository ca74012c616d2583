/** A user as Keycloak's admin API returns it (the fields this client reads). */
export interface KeycloakUser {
  id: string
  username: string
  email?: string
  enabled?: boolean
  emailVerified?: boolean
  /** Omitted by Keycloak when empty. */
  attributes?: Record<string, string[]>
  requiredActions?: string[]
}

export type RealmVersion = 24 | 25 | 26

export interface RealmClientOptions {
  /** Base address of the server, e.g. `https://id.example.com` (no `/auth` since Keycloak 17). */
  serverUrl: string
  realm: string
  /** The confidential client with direct access grants. */
  clientId: string
  clientSecret: string
  /** Credentials of an admin in the master realm (admin-cli). */
  adminUser: string
  adminPassword: string
  /** Server version, or `auto` to ask the server. */
  version?: RealmVersion | 'auto'
  timeoutMs?: number
  /** Refresh the admin token this long before it expires (admin tokens last about 60 s). */
  adminTokenLeewayMs?: number
}
