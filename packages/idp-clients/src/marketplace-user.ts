/** What the exchange knows about a marketplace user, from the marketplace JWT's claims. */
export interface MarketplaceUser {
  userId: string
  orgId: string
  applicationId: string
  /** The email claim; absent claims get a synthetic address (see `syntheticEmail`). */
  email?: string | null
}

/**
 * The address used when the marketplace JWT carries no email: built from the user id under the reserved
 * `.invalid` top-level domain (RFC 2606), so it can never reach anyone.
 *
 * @example
 * syntheticEmail('user_1') // 'user_1@users.pf.invalid'
 */
export function syntheticEmail(userId: string): string {
  const local = userId.toLowerCase().replace(/[^a-z0-9._-]/g, (c) => `-${c.charCodeAt(0).toString(16)}-`)
  return `${local}@users.pf.invalid`
}

/** The email to give the identity provider: the claim, else the synthetic address. */
export function emailOf(user: MarketplaceUser): string {
  return user.email?.trim() || syntheticEmail(user.userId)
}

/** Tokens as the identity provider returns them (OAuth 2.0, RFC 6749 section 5.1, plus OpenID's id_token). */
export interface IdpTokens {
  access_token: string
  token_type: string
  expires_in: number
  refresh_token?: string
  refresh_expires_in?: number
  id_token?: string
  scope?: string
  [extra: string]: unknown
}

/** The identity provider's user after a sync. */
export interface SyncedUser {
  /** The provider's user id. */
  id: string
  /** What the password grant must send as `username`. */
  username: string
  created: boolean
  adopted: boolean
}
