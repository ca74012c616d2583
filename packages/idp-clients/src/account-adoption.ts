import { IdpAccountConflictError } from './errors'

/**
 * What a create that meets an existing holder of the email (409) may do with it (service contract,
 * `ACCOUNT_ADOPTION`): `unlinked` adopts only an account linked to no marketplace user and holding no role
 * beyond `pf-user` and the provider's defaults; `never` adopts nothing.
 */
export type AccountAdoption = 'unlinked' | 'never'

export interface AdoptionCandidate {
  /** How the account was found, for the message: "holder of the email", "user pf-x". */
  what: string
  /** The marketplace user id stored on it, if any. */
  linkedTo: string | undefined
  /** Its roles beyond `pf-user` and the provider's defaults. */
  extraRoles: () => Promise<string[]>
}

/**
 * Throws `IdpAccountConflictError` unless the marketplace user `userId` may take over the account; the checks
 * only read. One marketplace user is one account: an account linked to another user is never taken.
 */
export async function assertAdoptable(
  policy: AccountAdoption,
  userId: string,
  { what, linkedTo, extraRoles }: AdoptionCandidate,
): Promise<void> {
  if (linkedTo !== undefined && linkedTo !== userId)
    throw new IdpAccountConflictError(`the ${what} is linked to another marketplace user`)
  if (policy === 'never')
    throw new IdpAccountConflictError(`the ${what} exists and ACCOUNT_ADOPTION=never forbids adopting it`)
  const roles = await extraRoles()
  if (roles.length > 0)
    throw new IdpAccountConflictError(
      `the ${what} holds roles beyond pf-user (${roles.join(', ')}); it is not adopted`,
    )
}
