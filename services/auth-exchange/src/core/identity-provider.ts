import type { IdpTokens, MarketplaceUser, NormalizedClaims, SyncedUser } from '@pf/idp-clients'

/** What the exchange needs of an identity provider, whatever its style. */
export interface IdentityProvider {
  style: 'realm' | 'tenant'
  /** Create or update the provider's user (the derived password is the adapter's business). */
  syncUser(user: MarketplaceUser): Promise<SyncedUser>
  /** The password grant for a synced user. */
  signIn(username: string, user: MarketplaceUser): Promise<IdpTokens>
  logout(refreshToken: string): Promise<void>
  /** The claims of an access token it issued (unverified: it just came from the provider), or null if opaque. */
  claimsOf(accessToken: string): NormalizedClaims | null
  ping(): Promise<void>
}
