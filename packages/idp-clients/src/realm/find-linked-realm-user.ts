import { LINK_ATTRIBUTE } from '../marketplace-attributes'
import type { RealmAdminApi } from './realm-admin-api'
import type { KeycloakUser } from './realm-types'

/** The marketplace user a realm account is linked to (its `pfUserId` attribute), if any. */
export const linkOf = (user: KeycloakUser) => user.attributes?.[LINK_ATTRIBUTE]?.[0]

/**
 * The realm account linked to this marketplace user whatever its username (an adopted one keeps its own), and
 * the accounts the search also returned that are linked to someone else: Keycloak's attribute search
 * (`q=pfUserId:<id>`) compares case-blind, so the link is compared again exactly.
 */
export async function lookUpLinkedRealmUser(
  api: RealmAdminApi,
  userId: string,
): Promise<{ user: KeycloakUser | undefined; others: KeycloakUser[] }> {
  const candidates = await api.findUsers({ q: `${LINK_ATTRIBUTE}:${userId}` })
  return {
    user: candidates.find((u) => linkOf(u) === userId),
    others: candidates.filter((u) => linkOf(u) !== userId),
  }
}

/** The realm account linked to this marketplace user (see `lookUpLinkedRealmUser`). */
export async function findLinkedRealmUser(
  api: RealmAdminApi,
  userId: string,
): Promise<KeycloakUser | undefined> {
  return (await lookUpLinkedRealmUser(api, userId)).user
}
