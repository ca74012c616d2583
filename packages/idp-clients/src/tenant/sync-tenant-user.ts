import { assertAdoptable, type AccountAdoption } from '../account-adoption'
import { IdpConflictError } from '../errors'
import { marketplaceAttributes } from '../marketplace-attributes'
import { emailOf, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import { PF_USER_ROLE } from '../pf-user-role'
import { findLinkedTenantUser, inConnection, linkOf } from './find-linked-tenant-user'
import { tenantAdoptionRefusal } from './tenant-adoption-refusal'
import type { TenantManagementApi } from './tenant-management-api'
import type { Auth0User } from './tenant-types'
import { PASSWORD_MARK } from '../password-mark'
import { unmarkTenantPassword } from './unmark-tenant-password'

export interface TenantSyncContext {
  connection: string
  adoption: AccountAdoption
}

/**
 * Creates or updates the tenant user (spec, C2 steps 2-3), one account per marketplace user, deciding only on
 * immediately consistent reads (Auth0: the user search lags behind writes):
 * - the holder of the email in `connection` (`users-by-email`) linked to this user is ours: `app_metadata`
 *   patched when it changed, `pf-user` re-asserted;
 * - else an account linked to this user under an older email (found by search, confirmed by `GET /users/{id}`);
 * - else an unlinked holder of the email is adopted only as `adoption` allows (`tenantAdoptionRefusal`, checked
 *   before anything is changed), one linked to another marketplace user never (`IdpAccountConflictError`); an
 *   adopted account gets the derived password, loses every session and refresh token (a new password ends
 *   none), and only then the link, so a failure before it leaves the account to be adopted again;
 * - else created with the derived password; a 409 (a concurrent create) starts over from the email.
 * A password this sync sets with the derived password is marked in `app_metadata` (`PASSWORD_MARK`). With
 * `passwordless` (Custom Token Exchange: `password` is random, never kept) nothing is marked, and an own account
 * still marked gets that random password and loses the mark, so the derived one stops working (issue 39).
 */
export async function syncTenantUser(
  api: TenantManagementApi,
  { connection, adoption }: TenantSyncContext,
  user: MarketplaceUser,
  password: string,
  { passwordless = false }: { passwordless?: boolean } = {},
): Promise<SyncedUser> {
  const metadata = marketplaceAttributes(user)
  const marked = passwordless ? {} : { [PASSWORD_MARK.name]: PASSWORD_MARK.value }
  const email = emailOf(user)
  const synced = (account: Auth0User, how: Pick<SyncedUser, 'created' | 'adopted'>): SyncedUser => ({
    id: account.user_id,
    pfUserId: user.userId,
    username: account.email ?? email,
    ...how,
  })

  async function useOwn(own: Auth0User): Promise<SyncedUser> {
    if (Object.entries(metadata).some(([key, value]) => own.app_metadata?.[key] !== value))
      await api.patchUser(own.user_id, { app_metadata: metadata })
    // A failure between create and role assignment must not leave the user without pf-user for good.
    if (passwordless && own.app_metadata?.[PASSWORD_MARK.name] === PASSWORD_MARK.value) {
      await unmarkTenantPassword(api, own.user_id, connection, password)
    }
    await api.assignRole(own.user_id, PF_USER_ROLE)
    return synced(own, { created: false, adopted: false })
  }

  async function adopt(holder: Auth0User): Promise<SyncedUser> {
    await assertAdoptable(adoption, user, {
      what: `holder of the email in connection ${connection}`,
      linkedTo: linkOf(holder),
      email: holder.email,
      refusal: () => tenantAdoptionRefusal(api, connection, holder),
    })
    await api.patchUser(holder.user_id, { password, connection })
    await api.endSessions(holder.user_id)
    await api.patchUser(holder.user_id, { app_metadata: { ...metadata, ...marked } })
    await api.assignRole(holder.user_id, PF_USER_ROLE)
    return synced(holder, { created: false, adopted: true })
  }

  const holderOfEmail = async () =>
    (await api.usersByEmail(email)).find((candidate) => inConnection(candidate, connection))

  const holder = await holderOfEmail()
  if (holder && linkOf(holder) === user.userId) return useOwn(holder)
  const linked = await findLinkedTenantUser(api, connection, user.userId)
  if (linked) return useOwn(linked)
  if (holder) return adopt(holder)
  try {
    const created = await api.createUser({
      connection,
      email,
      email_verified: true,
      password,
      app_metadata: { ...metadata, ...marked },
    })
    await api.assignRole(created.user_id, PF_USER_ROLE)
    return synced(created, { created: true, adopted: false })
  } catch (error) {
    if (!(error instanceof IdpConflictError)) throw error
    const winner = await holderOfEmail()
    if (!winner) throw error
    return linkOf(winner) === user.userId ? useOwn(winner) : adopt(winner)
  }
}
