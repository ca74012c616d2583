import type { IdpTokens, MarketplaceUser, NormalizedClaims, SyncedUser } from '@pf/idp-clients'

/** What the exchange knows of the caller beyond the marketplace JWT. */
export interface CallerContext {
  /** The caller's IP address (for the tenant's brute-force protection). */
  ip?: string
}

/** A set-up problem that leaves the provider usable but unsafe: logged at start, as the doctor's line says it. */
export interface SetupProblem {
  check: string
  problem: string
  fix: string
}

/** What the exchange needs of an identity provider, whatever its style. */
export interface IdentityProvider {
  style: 'realm' | 'tenant'
  /**
   * Checks the provider can be served (realm: version 24 or newer), rejecting when it cannot; resolves to the
   * set-up problems that do not stop it (realm: users who may write their own marketplace attributes).
   */
  check(): Promise<SetupProblem[]>
  /** Create or update the provider's user (the derived password is the adapter's business). */
  syncUser(user: MarketplaceUser): Promise<SyncedUser>
  /** The password grant for a user `syncUser` just returned, with the recoveries it allows. */
  signIn(synced: SyncedUser, user: MarketplaceUser, caller: CallerContext): Promise<IdpTokens>
  /** The password grant alone, for a user known to exist (warm path). */
  grant(username: string, user: MarketplaceUser, caller: CallerContext): Promise<IdpTokens>
  logout(refreshToken: string): Promise<void>
  /** The claims of an access token it issued (unverified: it just came from the provider), or null if opaque. */
  claimsOf(accessToken: string): NormalizedClaims | null
  ping(): Promise<void>
}
