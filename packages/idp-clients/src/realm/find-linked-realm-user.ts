import { LINK_ATTRIBUTE } from '../marketplace-attributes'
import { realmUsername } from '../marketplace-user'
import { linkQueries } from './link-queries'
import type { RealmAdminApi } from './realm-admin-api'
import type { KeycloakUser } from './realm-types'

/** The marketplace user a realm account is linked to (its `pfUserId` attribute), if any. */
export const linkOf = (user: KeycloakUser) => user.attributes?.[LINK_ATTRIBUTE]?.[0]

/**
 * The accounts Keycloak's attribute search returns for this link (`linkQueries`: quoted and escaped for the
 * server's parser), by id. The search compares case-blind: callers compare the link again, exactly.
 */
async function searchByLink(api: RealmAdminApi, userId: string): Promise<Map<string, KeycloakUser>> {
  const candidates = new Map<string, KeycloakUser>()
  for (const q of linkQueries(userId)) for (const u of await api.findUsers({ q })) candidates.set(u.id, u)
  return candidates
}

/**
 * The account linked to this marketplace user by the attribute search alone (`searchByLink`, the link compared
 * exactly), for a caller that has already looked under the username the exchange gives.
 */
export async function searchLinkedRealmUser(
  api: RealmAdminApi,
  userId: string,
): Promise<KeycloakUser | undefined> {
  return [...(await searchByLink(api, userId)).values()].find((u) => linkOf(u) === userId)
}

/**
 * The realm account linked to this marketplace user whatever its username (an adopted one keeps its own), and
 * the accounts the search also returned that are linked to someone else. Found by Keycloak's attribute search
 * (`searchByLink`), else by the username the exchange gives (`realmUsername`): the search compares case-blind,
 * a server may not be able to read some ids, and a database whose `lower()` leaves non-ASCII letters alone
 * misses some others; whatever comes back, the link is compared again, exactly.
 */
export async function lookUpLinkedRealmUser(
  api: RealmAdminApi,
  userId: string,
): Promise<{ user: KeycloakUser | undefined; others: KeycloakUser[] }> {
  const candidates = await searchByLink(api, userId)
  if (![...candidates.values()].some((u) => linkOf(u) === userId))
    for (const u of await api.findUsers({ username: realmUsername(userId) })) candidates.set(u.id, u)
  const found = [...candidates.values()]
  return {
    user: found.find((u) => linkOf(u) === userId),
    others: found.filter((u) => linkOf(u) !== undefined && linkOf(u) !== userId),
  }
}

/** The realm account linked to this marketplace user (see `lookUpLinkedRealmUser`). */
export async function findLinkedRealmUser(
  api: RealmAdminApi,
  userId: string,
): Promise<KeycloakUser | undefined> {
  return (await lookUpLinkedRealmUser(api, userId)).user
}
