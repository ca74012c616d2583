import { IdpConflictError } from '../errors'
import { emailOf, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import { PF_USER_ROLE } from '../pf-user-role'
import { exactTerm } from './lucene'
import type { Auth0User } from './tenant-types'

/** The Management API v2 calls the sync needs (spec, C2); `createTenantManagementApi` speaks them over HTTP. */
export interface TenantManagementApi {
  /** `GET /users?q=…&search_engine=v3`. */
  searchUsers(query: string): Promise<Auth0User[]>
  /** `POST /users`; rejects with `IdpConflictError` on 409. */
  createUser(body: Record<string, unknown>): Promise<Auth0User>
  patchUser(id: string, body: Record<string, unknown>): Promise<void>
  /** Gives the user the role of exactly this name; no such role in the tenant: nothing (spec, C2 step 3). */
  assignRole(id: string, roleName: string): Promise<void>
}

const metadataOf = (user: MarketplaceUser) => ({
  pfUserId: user.userId,
  orgId: user.orgId,
  pfApplicationId: user.applicationId,
})
const sameMetadata = (stored: Auth0User['app_metadata'], wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => stored?.[key] === value)

/**
 * Creates or updates the tenant user (spec, C2 steps 2-3): found by `app_metadata.pfUserId` (search engine
 * v3), its `app_metadata` patched when it changed; or created in `connection` with the derived password and
 * given the `pf-user` role when the tenant has one. A 409 (the email exists in the connection) adopts that
 * user: metadata and derived password are set on it. Decisions only: every call goes through `api`.
 */
export async function syncTenantUser(
  api: TenantManagementApi,
  connection: string,
  user: MarketplaceUser,
  password: string,
): Promise<SyncedUser> {
  const metadata = metadataOf(user)
  const email = emailOf(user)
  const [existing] = await api.searchUsers(exactTerm('app_metadata.pfUserId', user.userId))
  if (existing) {
    if (!sameMetadata(existing.app_metadata, metadata))
      await api.patchUser(existing.user_id, { app_metadata: metadata })
    return { id: existing.user_id, username: existing.email ?? email, created: false, adopted: false }
  }
  try {
    const created = await api.createUser({
      connection,
      email,
      email_verified: true,
      password,
      app_metadata: metadata,
    })
    await api.assignRole(created.user_id, PF_USER_ROLE)
    return { id: created.user_id, username: created.email ?? email, created: true, adopted: false }
  } catch (error) {
    if (!(error instanceof IdpConflictError)) throw error
    const [holder] = await api.searchUsers(
      `${exactTerm('app_metadata.pfUserId', user.userId)} OR ${exactTerm('email', email)}`,
    )
    if (!holder) throw error
    const ours = holder.app_metadata?.pfUserId === user.userId
    await api.patchUser(
      holder.user_id,
      ours ? { app_metadata: metadata } : { app_metadata: metadata, password, connection },
    )
    if (!ours) await api.assignRole(holder.user_id, PF_USER_ROLE)
    return { id: holder.user_id, username: holder.email ?? email, created: false, adopted: !ours }
  }
}
