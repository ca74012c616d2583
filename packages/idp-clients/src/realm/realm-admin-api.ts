import type { IdpRequest } from '../lib/http-client'
import type { KeycloakRole, KeycloakUser } from './realm-types'

/** One admin call with the cached admin token (a 401 gets one retry with a fresh token). */
export type RealmAdminCall = <T>(
  what: string,
  config: Omit<IdpRequest, 'what'>,
) => Promise<{ data: T; headers: unknown }>

/** The admin API calls the sync needs (spec, C1 "Admin API"); `createRealmAdminApi` speaks them over HTTP. */
export interface RealmAdminApi {
  /** Users matching exactly (`exact=true`, full representations); `q` is `name:value` attribute search. */
  findUsers(query: { username: string } | { email: string } | { q: string }): Promise<KeycloakUser[]>
  getUser(id: string): Promise<KeycloakUser>
  /** Resolves to the new user's id (the last segment of `Location`); rejects with `IdpConflictError` on 409. */
  createUser(body: Record<string, unknown>): Promise<string>
  /** `PUT` of the complete representation: since 24.0.4 whatever it leaves out is removed. */
  updateUser(user: KeycloakUser): Promise<void>
  resetPassword(id: string, value: string): Promise<void>
  assignRealmRole(id: string, roleName: string): Promise<void>
  /** `GET /roles/{name}` (cached: ids do not change). */
  role(name: string): Promise<KeycloakRole>
  /** `GET /roles-by-id/{id}/composites`: the role's direct children. */
  roleComposites(roleId: string): Promise<KeycloakRole[]>
  /** Ids (uuids) of the clients whose roles are mapped to the user directly (`GET /users/{id}/role-mappings`). */
  directClientIds(id: string): Promise<string[]>
  /** `GET /users/{id}/role-mappings/realm/composite`: effective realm roles, composites and groups expanded. */
  effectiveRealmRoles(id: string): Promise<KeycloakRole[]>
  /** `GET /users/{id}/role-mappings/clients/{clientId}/composite`: effective roles of one client. */
  effectiveClientRoles(id: string, clientId: string): Promise<KeycloakRole[]>
  /** `GET /users/{id}/groups/count`. */
  groupCount(id: string): Promise<number>
  /** Types of the user's stored credentials (`GET /users/{id}/credentials`): `password`, `otp`, … */
  credentialTypes(id: string): Promise<string[]>
  /** Aliases of the identity providers linked to the user (`GET /users/{id}/federated-identity`). */
  identityProviderLinks(id: string): Promise<string[]>
  /** Keycloak 26: names of the user's organizations; none when the realm has organizations turned off. */
  organizations(id: string): Promise<string[]>
  /**
   * What the admin identity lacks to see every role (role mappings hide what it may not view): realm-management
   * roles it should be given; empty when it sees them all.
   */
  missingRoleVisibility(): Promise<string[]>
  /** `POST /users/{id}/logout`: ends every session of the user and makes its refresh tokens stale. */
  logoutUser(id: string): Promise<void>
}

/** The admin API over HTTP, with any other admin call (e.g. `/admin/serverinfo`). */
export interface RealmAdminHttp extends RealmAdminApi {
  call: RealmAdminCall
}
