import type { IdpRequest } from '../lib/http-client'
import type { Auth0User } from './tenant-types'

/** One Management API v2 call (`url` below `/api/v2`) with the cached management token. */
export type TenantManagementCall = <T>(config: IdpRequest) => Promise<{ data: T }>

/** The Management API v2 calls the sync needs (spec, C2); `createTenantClient` speaks them over HTTP. */
export interface TenantManagementApi {
  /** `GET /users?q=…&search_engine=v3`: eventually consistent, for hints only. */
  searchUsers(query: string): Promise<Auth0User[]>
  /** `GET /users-by-email`: immediately consistent, every connection. */
  usersByEmail(email: string): Promise<Auth0User[]>
  /** `GET /users/{id}`: immediately consistent; null when gone. */
  getUser(id: string): Promise<Auth0User | null>
  /** `POST /users`; rejects with `IdpConflictError` on 409. */
  createUser(body: Record<string, unknown>): Promise<Auth0User>
  patchUser(id: string, body: Record<string, unknown>): Promise<void>
  /** Names of the user's roles. */
  userRoles(id: string): Promise<string[]>
  /** Gives the user the role of exactly this name; no such role in the tenant: nothing (spec, C2 step 3). */
  assignRole(id: string, roleName: string): Promise<void>
  /** Types of the user's authentication methods (`password`, `totp`, `phone`, …). */
  authenticationMethods(id: string): Promise<string[]>
  /** Names of the user's organizations. */
  organizations(id: string): Promise<string[]>
  /** The user's permissions, direct or through roles, as `<permission> on <API identifier>`. */
  userPermissions(id: string): Promise<string[]>
  /** The permissions of the role of exactly this name (none when the tenant has no such role). */
  rolePermissions(roleName: string): Promise<string[]>
  /**
   * Ends every session and refresh token of the user: `DELETE /users/{id}/sessions` and `/refresh-tokens`
   * where the tenant's plan has them, else its refresh tokens one by one through `/device-credentials`.
   */
  endSessions(id: string): Promise<void>
  /** The user's refresh tokens (`GET /users/{id}/refresh-tokens`, every page); null where the plan lacks it. */
  refreshTokens(id: string): Promise<{ id: string; created_at?: string }[] | null>
  /** `DELETE /refresh-tokens/{id}`; false when it is gone already (or the plan lacks the endpoint). */
  deleteRefreshToken(tokenId: string): Promise<boolean>
  /** Ids of the user's refresh tokens as `/device-credentials` lists them (no issue time): the first page. */
  deviceRefreshTokens(id: string): Promise<string[]>
  /** Revokes every refresh token of the user through `/device-credentials`; resolves to how many. */
  revokeDeviceRefreshTokens(id: string): Promise<number>
}

/** The Management API over HTTP, with any other call and the management token itself (its `scope` claim). */
export interface TenantManagementHttp extends TenantManagementApi {
  call: TenantManagementCall
  managementToken(): Promise<string>
}
