import { createHash } from 'node:crypto'

/** What the exchange knows about a marketplace user, from the marketplace JWT's claims. */
export interface MarketplaceUser {
  userId: string
  orgId: string
  applicationId: string
  /** The email claim; absent claims get a synthetic address (see `syntheticEmail`). */
  email?: string | null
  /** The `email_verified` claim: `false` means the marketplace does not vouch for the email (never adopts). */
  emailVerified?: boolean | null
  /** Given and family name, when the marketplace JWT carries them (realm profiles may require names). */
  firstName?: string | null
  lastName?: string | null
}

/**
 * `text` with every character outside `keep` written as `+<hex code point>+`, `+` included: one-to-one, so two
 * different ids never give the same result, and the identity when `text` holds only `keep` characters.
 */
function escapeOutside(text: string, keep: RegExp): string {
  return [...text].map((c) => (keep.test(c) ? c : `+${c.codePointAt(0)!.toString(16)}+`)).join('')
}

/** Spec, "Identity provider user": the deterministic realm username is `pf-<userId>` (see `realmUsername`). */
export const REALM_USERNAME_PREFIX = 'pf-'

/** The hash form for ids too long to escape within a length limit: `+h+` can never come out of `escapeOutside`. */
const hashed = (userId: string) => `+h+${createHash('sha256').update(userId, 'utf8').digest('hex')}`

/**
 * The realm username of a marketplace user: `pf-<userId>` (spec, "Identity provider user") for ids of lower-case
 * letters, digits and `._@-`. Keycloak stores usernames lower-cased and refuses characters such as space, `/`
 * or `|` (UsernameProhibitedCharactersValidator), so every other character, upper-case letters included, is
 * escaped: `Carol` and `carol` get two accounts, and every id maps to one username no other id maps to.
 *
 * @example
 * realmUsername('user_1') // 'pf-user_1'
 * realmUsername('Carol') // 'pf-+43+arol'
 */
export function realmUsername(userId: string): string {
  const escaped = `${REALM_USERNAME_PREFIX}${escapeOutside(userId, /^[a-z0-9._@-]$/)}`
  return escaped.length <= 255 ? escaped : `${REALM_USERNAME_PREFIX}${hashed(userId)}`
}

/**
 * The address used when the marketplace JWT carries no email, under the reserved `.invalid` top-level domain
 * (RFC 2606), so it can never reach anyone. One-to-one like `realmUsername`: emails compare case-insensitively,
 * so upper-case letters are escaped too, and so is `.` (a local part may not have `..` or end with `.`).
 *
 * @example
 * syntheticEmail('user_1') // 'user_1@users.pf.invalid'
 * syntheticEmail('a b') // 'a+20+b@users.pf.invalid'
 */
export function syntheticEmail(userId: string): string {
  const local = escapeOutside(userId, /^[a-z0-9_-]$/)
  return `${local.length <= 64 ? local : hashed(userId).slice(0, 64)}@users.pf.invalid`
}

/** The email to give the identity provider: the claim, else the synthetic address. */
export function emailOf(user: Pick<MarketplaceUser, 'userId' | 'email'>): string {
  return user.email?.trim() || syntheticEmail(user.userId)
}

/**
 * Names for a new provider account: from the claims, else the documented fallback "Marketplace" / "User"
 * (a stock Keycloak profile requires both at login, and refuses characters such as `<>&"$%!#?§;*~/\|^=[]{}()`
 * in them, which a user id may hold).
 */
export function namesOf(user: MarketplaceUser): { firstName: string; lastName: string } {
  return {
    firstName: user.firstName?.trim() || 'Marketplace',
    lastName: user.lastName?.trim() || 'User',
  }
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
  /** The marketplace user the account is linked to. */
  pfUserId: string
  /** What the password grant must send as `username`. */
  username: string
  created: boolean
  adopted: boolean
}
