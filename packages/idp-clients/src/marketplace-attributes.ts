import type { MarketplaceUser } from './marketplace-user'

/** The attribute that links a provider account to its marketplace user (realm attribute, tenant `app_metadata`). */
export const LINK_ATTRIBUTE = 'pfUserId'

/**
 * The custom attributes the exchange writes on an account (realm attributes, tenant `app_metadata`), which the
 * providers put into access tokens under the same names (the realm's mappers, the tenant's post-login Action).
 */
export const MARKETPLACE_ATTRIBUTES = [LINK_ATTRIBUTE, 'orgId', 'pfApplicationId'] as const

export type MarketplaceAttribute = (typeof MARKETPLACE_ATTRIBUTES)[number]

/** A marketplace user's value of each of `MARKETPLACE_ATTRIBUTES` (the type checks the names against it). */
export function marketplaceAttributes(user: MarketplaceUser): Record<MarketplaceAttribute, string> {
  return { pfUserId: user.userId, orgId: user.orgId, pfApplicationId: user.applicationId }
}
