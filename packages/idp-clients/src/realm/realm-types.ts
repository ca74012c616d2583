import type { AccountAdoption } from '../account-adoption'
import type { ExchangeAssertions } from '../assertion/create-exchange-assertions'
import type { RetryOptions } from '../lib/http-client'

/** A user as Keycloak's admin API returns it: what this client reads, and the rest kept as it is for the PUT. */
export interface KeycloakUser {
  id: string
  username: string
  email?: string
  firstName?: string
  lastName?: string
  enabled?: boolean
  emailVerified?: boolean
  /** Omitted by Keycloak when empty. */
  attributes?: Record<string, string[]>
  requiredActions?: string[]
  /** The user federation provider (LDAP, Kerberos) storing the user, when it is not stored locally. */
  federationLink?: string
  [field: string]: unknown
}

/** A role as the admin API describes it (brief representation). */
export interface KeycloakRole {
  id: string
  name: string
  composite?: boolean
  clientRole?: boolean
  /** The realm's name for a realm role, the client's id (uuid) for a client role. */
  containerId?: string
}

export type RealmVersion = 24 | 25 | 26

export interface RealmClientOptions {
  /** Base address of the server, e.g. `https://id.example.com` (no `/auth` since Keycloak 17). */
  serverUrl: string
  realm: string
  /** The confidential client with direct access grants. */
  clientId: string
  clientSecret: string
  /**
   * How admin calls authenticate: `password` (spec: an admin of the master realm through `admin-cli`,
   * `adminUser`/`adminPassword`) or `client_credentials` (the client's own service account, with the
   * `realm-management` roles `manage-users`, `view-users`, `query-users`, `view-realm`, and `view-clients` for
   * adoption). Default `password`.
   */
  adminAuth?: 'password' | 'client_credentials'
  adminUser?: string
  adminPassword?: string
  /** Server version, or `auto` to ask the server. */
  version?: RealmVersion | 'auto'
  /** What a 409 on create may do with the existing holder of the email. Default `verified`. */
  adoption?: AccountAdoption
  timeoutMs?: number
  retry?: RetryOptions
  /** Refresh the admin token this long before it expires (admin tokens last about 60 s). */
  adminTokenLeewayMs?: number
  /** For tests: the clock the admin-token cache reads (epoch milliseconds). */
  now?: () => number
  /** The JWT Authorization Grant (`EXCHANGE_GRANT=jwt-bearer`): the exchange's assertions and the provider's alias. */
  jwtBearer?: { assertions: ExchangeAssertions; providerAlias: string }
}
