import { assertAdoptable, type AccountAdoption } from '../account-adoption'
import { IdpConflictError, IdpMisconfiguredError } from '../errors'
import { MARKETPLACE_ATTRIBUTES, marketplaceAttributes } from '../marketplace-attributes'
import { PASSWORD_MARK } from '../password-mark'
import { emailOf, namesOf, realmUsername, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import { PF_USER_ROLE } from '../pf-user-role'
import { findLinkedRealmUser, linkOf, searchLinkedRealmUser } from './find-linked-realm-user'
import type { RealmAdminApi } from './realm-admin-api'
import { realmAdoptionRefusal } from './realm-adoption-refusal'
import type { KeycloakUser, RealmVersion } from './realm-types'

export interface RealmSyncContext {
  realm: string
  version: RealmVersion
  adoption: AccountAdoption
}

type Attributes = Record<string, string[]>

const sameValues = (a: string[] | undefined, b: string[]) => a?.join('\u0000') === b.join('\u0000')
const hasOurs = (stored: KeycloakUser, attributes: Attributes) =>
  Object.entries(attributes).every(([name, values]) => sameValues(stored.attributes?.[name], values))

/** Our changes on the complete representation: attributes merged (other systems' kept), missing names filled. */
function withOurs(
  stored: KeycloakUser,
  attributes: Attributes,
  user: MarketplaceUser,
): KeycloakUser | undefined {
  if (hasOurs(stored, attributes) && stored.firstName && stored.lastName) return undefined
  const names = namesOf(user)
  return {
    ...stored,
    firstName: stored.firstName || names.firstName,
    lastName: stored.lastName || names.lastName,
    attributes: { ...stored.attributes, ...attributes },
  }
}

/** After our write: the attributes stuck (a profile without them drops them silently). */
async function checkStored(
  api: RealmAdminApi,
  realm: string,
  id: string,
  attributes: Attributes,
): Promise<KeycloakUser> {
  const stored = await api.getUser(id)
  if (!hasOurs(stored, attributes)) {
    throw new IdpMisconfiguredError(
      `realm "${realm}" dropped the attributes ${MARKETPLACE_ATTRIBUTES.join(', ')}: its user profile does not allow ` +
        'them. Set Realm settings → General → Unmanaged attributes to "Only administrators can write" ' +
        '(unmanagedAttributePolicy ADMIN_EDIT; never "Enabled", which lets every user edit them), or declare ' +
        'them in the user profile with only admin in their edit permission (PUT /admin/realms/{realm}/users/profile).',
    )
  }
  return stored
}

/** Version 24 may leave UPDATE_PASSWORD after a non-temporary credential we just set: remove that one only. */
async function clearStrayUpdatePassword(
  api: RealmAdminApi,
  version: RealmVersion,
  stored: KeycloakUser,
): Promise<void> {
  if (version !== 24 || !stored.requiredActions?.includes('UPDATE_PASSWORD')) return
  await api.updateUser({
    ...stored,
    requiredActions: stored.requiredActions.filter((a) => a !== 'UPDATE_PASSWORD'),
  })
}

/** The attributes with the mark of a password the exchange set (`PASSWORD_MARK`). */
const marked = (attributes: Attributes): Attributes => ({
  ...attributes,
  [PASSWORD_MARK.name]: [PASSWORD_MARK.value],
})

/**
 * Creates or updates the realm user of a marketplace user (spec, C1 steps 2-3) so that one marketplace user is
 * one account, always:
 * - found by `realmUsername(userId)` and linked to this user (`pfUserId`): its attributes are brought up to
 *   date by GET → change → PUT of the complete representation, and `pf-user` is re-asserted;
 * - else the account linked to this user under a username of its own (an adopted one), found by the link
 *   search (`searchLinkedRealmUser`) before anything is created or adopted: used as above;
 * - not found: created with names, attributes, the derived password and `pf-user`;
 * - found by username but not linked (someone else may have registered `pf-<userId>`): adopted only when its
 *   stored email is the marketplace user's, besides the rules below (`assertAdoptable`);
 * - a 409 on create: the winner of a concurrent create, or an account already linked to this user (an adopted
 *   one), is used; otherwise the holder of the email is adopted only as `adoption` allows (see
 *   `realmAdoptionRefusal`), and never when it is linked to another marketplace user (`IdpAccountConflictError`,
 *   nothing changed). An adopted account gets the derived password, then loses every session and refresh token
 *   (a new password ends none), then gets the link: a failure before the link leaves it to be adopted again.
 * Never touched: `enabled`, and required actions other than version 24's stray `UPDATE_PASSWORD` right after
 * the exchange set the password itself. Decisions only: every call goes through `api`.
 * `password` undefined (a password-less mode): none is set, on a new account or an adopted one. A password set
 * here is marked on the account in the same write (`PASSWORD_MARK`), not checked after: a realm whose profile
 * drops the mark still works, and the mark is only what a password-less mode may remove.
 */
export async function syncRealmUser(
  api: RealmAdminApi,
  { realm, version, adoption }: RealmSyncContext,
  user: MarketplaceUser,
  password: string | undefined,
): Promise<SyncedUser> {
  const username = realmUsername(user.userId)
  const attributes: Attributes = Object.fromEntries(
    Object.entries(marketplaceAttributes(user)).map(([name, value]) => [name, [value]]),
  )
  const synced = (id: string, name: string, how: Pick<SyncedUser, 'created' | 'adopted'>): SyncedUser => ({
    id,
    pfUserId: user.userId,
    username: name,
    ...how,
  })

  async function useOwn(own: KeycloakUser): Promise<SyncedUser> {
    const updated = withOurs(own, attributes, user)
    if (updated) {
      await api.updateUser(updated)
      await checkStored(api, realm, own.id, attributes)
    }
    // A failure between create and role assignment must not leave the user without pf-user for good.
    await api.assignRealmRole(own.id, PF_USER_ROLE)
    return synced(own.id, own.username, { created: false, adopted: false })
  }

  async function adopt(holder: KeycloakUser, what: string): Promise<SyncedUser> {
    await assertAdoptable(adoption, user, {
      what,
      linkedTo: linkOf(holder),
      email: holder.email,
      refusal: () => realmAdoptionRefusal(api, { realm, version }, holder),
    })
    if (password !== undefined) await api.resetPassword(holder.id, password)
    await api.logoutUser(holder.id)
    const current = await api.getUser(holder.id)
    const updated = withOurs(current, attributes, user) ?? current
    await api.updateUser(
      password === undefined ? updated : { ...updated, attributes: marked(updated.attributes ?? {}) },
    )
    await clearStrayUpdatePassword(api, version, await checkStored(api, realm, holder.id, attributes))
    await api.assignRealmRole(holder.id, PF_USER_ROLE)
    return synced(holder.id, holder.username, { created: false, adopted: true })
  }

  /** An account found by username or email: ours, someone else's, or unlinked (adoption policy). */
  const claim = (found: KeycloakUser, what: string) =>
    linkOf(found) === user.userId ? useOwn(found) : adopt(found, what)

  const [byUsername] = await api.findUsers({ username })
  if (byUsername && linkOf(byUsername) === user.userId) return useOwn(byUsername)
  // An account adopted earlier keeps its own username: found by its link before another account is created or
  // adopted (its user may come back with an email nobody holds, or one a pf-<userId> account holds).
  const linked = await searchLinkedRealmUser(api, user.userId)
  if (linked) return useOwn(linked)
  if (byUsername) return adopt(byUsername, `account ${username}`)
  const email = emailOf(user)
  try {
    const id = await api.createUser({
      username,
      email,
      ...namesOf(user),
      enabled: true,
      emailVerified: true,
      ...(password === undefined
        ? { attributes }
        : {
            attributes: marked(attributes),
            credentials: [{ type: 'password', value: password, temporary: false }],
          }),
    })
    await clearStrayUpdatePassword(api, version, await checkStored(api, realm, id, attributes))
    await api.assignRealmRole(id, PF_USER_ROLE)
    return synced(id, username, { created: true, adopted: false })
  } catch (error) {
    if (!(error instanceof IdpConflictError)) throw error
    // A concurrent exchange created the same user first.
    const [raced] = await api.findUsers({ username })
    if (raced) return claim(raced, `account ${username}`)
    // An account adopted earlier carries our link under another username.
    const linked = await findLinkedRealmUser(api, user.userId)
    if (linked) return useOwn(linked)
    const [holder] = await api.findUsers({ email })
    if (!holder) throw error
    return claim(holder, 'holder of the email')
  }
}
