import { IdpAccountConflictError } from './errors'
import { emailOf, type MarketplaceUser } from './marketplace-user'

/**
 * What a create that meets an existing holder of the email (409) may do with it (service contract,
 * `ACCOUNT_ADOPTION`): `verified` adopts only an account whose takeover the marketplace's email claim alone
 * justifies (verified at the provider, enabled, local, unlinked, no second factor, no group or organization, no
 * role beyond `pf-user` and the defaults); `never` adopts nothing. `unlinked`, the earlier name, is read as
 * `verified`.
 */
export type AccountAdoption = 'verified' | 'unlinked' | 'never'

export interface AdoptionCandidate {
  /** How the account was found, for the message: "holder of the email", "account pf-x". */
  what: string
  /** The marketplace user id stored on it, if any. */
  linkedTo: string | undefined
  /** The email stored on it, if any. */
  email: string | null | undefined
  /** Why it may not be adopted (the first reason found, in words), or undefined; only reads. */
  refusal: () => Promise<string | undefined>
}

/** Emails as the providers store them: trimmed, compared case-blind (Keycloak lower-cases stored emails). */
const sameEmail = (stored: string | null | undefined, wanted: string) =>
  typeof stored === 'string' && stored.trim().toLowerCase() === wanted.trim().toLowerCase()

/**
 * Throws `IdpAccountConflictError` unless the marketplace user may take over the account; the checks only read.
 * One marketplace user is one account: an account linked to another user is never taken, nor one whose stored
 * email is not the marketplace user's (`emailOf`: the claim, else the synthetic address), whatever its username
 * says (anyone may have registered `pf-<userId>`), and a marketplace token saying `email_verified: false` never
 * takes one.
 *
 * @example
 * await assertAdoptable('verified', user, { what: 'holder of the email', linkedTo: undefined, email, refusal })
 */
export async function assertAdoptable(
  policy: AccountAdoption,
  user: Pick<MarketplaceUser, 'userId' | 'email' | 'emailVerified'>,
  { what, linkedTo, email, refusal }: AdoptionCandidate,
): Promise<void> {
  if (linkedTo !== undefined && linkedTo !== user.userId)
    throw new IdpAccountConflictError(`the ${what} is linked to another marketplace user`)
  if (!sameEmail(email, emailOf(user)))
    throw new IdpAccountConflictError(
      `the ${what} is not adopted: its email is not the marketplace user's (an account is never taken over for its username)`,
    )
  if (policy === 'never')
    throw new IdpAccountConflictError(`the ${what} exists and ACCOUNT_ADOPTION=never forbids adopting it`)
  if (user.emailVerified === false)
    throw new IdpAccountConflictError(
      `the ${what} exists and the marketplace token says its email is not verified: it is not adopted`,
    )
  const reason = await refusal()
  if (reason !== undefined) throw new IdpAccountConflictError(`the ${what} is not adopted: ${reason}`)
}
