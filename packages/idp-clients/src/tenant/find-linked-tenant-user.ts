import { LINK_ATTRIBUTE } from '../marketplace-attributes'
import { exactTerm } from './lucene'
import type { TenantManagementApi } from './tenant-management-api'
import type { Auth0User } from './tenant-types'

/** The marketplace user a tenant account is linked to (`app_metadata.pfUserId`), if any. */
export const linkOf = (user: Auth0User) => {
  const link = user.app_metadata?.[LINK_ATTRIBUTE]
  return typeof link === 'string' ? link : undefined
}

/** Whether the account has an identity in `connection` (users-by-email answers for every connection). */
export const inConnection = (user: Auth0User, connection: string) =>
  (user.identities ?? []).some((identity) => identity.connection === connection)

/**
 * The account of `connection` linked to this marketplace user whatever its email, and the accounts of the
 * connection the search named that are now linked to someone else: the user search (eventually consistent:
 * hints only) confirmed by `GET /users/{id}` (immediately consistent).
 */
export async function lookUpLinkedTenantUser(
  api: TenantManagementApi,
  connection: string,
  userId: string,
): Promise<{ user: Auth0User | undefined; others: Auth0User[] }> {
  const others: Auth0User[] = []
  for (const hint of await api.searchUsers(exactTerm(`app_metadata.${LINK_ATTRIBUTE}`, userId))) {
    const confirmed = await api.getUser(hint.user_id)
    if (!confirmed || !inConnection(confirmed, connection)) continue
    if (linkOf(confirmed) === userId) return { user: confirmed, others }
    others.push(confirmed)
  }
  return { user: undefined, others }
}

/** The account of `connection` linked to this marketplace user (see `lookUpLinkedTenantUser`). */
export async function findLinkedTenantUser(
  api: TenantManagementApi,
  connection: string,
  userId: string,
): Promise<Auth0User | undefined> {
  return (await lookUpLinkedTenantUser(api, connection, userId)).user
}
