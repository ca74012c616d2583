import { IdpConflictError, IdpMisconfiguredError } from '../errors'
import { emailOf, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import { PF_USER_ROLE } from '../pf-user-role'
import type { KeycloakUser } from './realm-types'

/** Spec, "Identity provider user": the deterministic realm username is `pf-<userId>`. */
export const REALM_USERNAME_PREFIX = 'pf-'
/** The custom attributes the exchange writes (and the realm's mappers turn into claims). */
export const MARKETPLACE_ATTRIBUTES = ['pfUserId', 'orgId', 'pfApplicationId'] as const

/** The admin API calls the sync needs (spec, C1 "Admin API"); `createRealmAdminApi` speaks them over HTTP. */
export interface RealmAdminApi {
  /** The first user matching exactly (`exact=true`), or null. */
  findUser(query: { username: string } | { email: string }): Promise<KeycloakUser | null>
  getUser(id: string): Promise<KeycloakUser>
  /** Resolves to the new user's id (the last segment of `Location`); rejects with `IdpConflictError` on 409. */
  createUser(body: Record<string, unknown>): Promise<string>
  updateUser(id: string, body: Partial<KeycloakUser>): Promise<void>
  resetPassword(id: string, value: string): Promise<void>
  assignRealmRole(id: string, roleName: string): Promise<void>
}

function marketplaceAttributes(user: MarketplaceUser): Record<string, string[]> {
  return { pfUserId: [user.userId], orgId: [user.orgId], pfApplicationId: [user.applicationId] }
}

function hasAttributes(stored: KeycloakUser['attributes'], wanted: Record<string, string[]>): boolean {
  return Object.entries(wanted).every(
    ([name, values]) => stored?.[name]?.join('\u0000') === values.join('\u0000'),
  )
}

/**
 * Creates or updates the realm user of a marketplace user (spec, C1 steps 2-3): found by `pf-<userId>`,
 * created with the derived password and the `pf-user` role, or, when another user already holds the email
 * (409), that user is adopted: given the attributes and the derived password. Decisions only: every call
 * goes through `api`.
 */
export async function syncRealmUser(
  api: RealmAdminApi,
  realm: string,
  user: MarketplaceUser,
  password: string,
): Promise<SyncedUser> {
  const username = `${REALM_USERNAME_PREFIX}${user.userId}`
  const attributes = marketplaceAttributes(user)

  /**
   * After a create or an adoption: check the attributes stuck (a realm whose user profile does not allow
   * them drops them silently, and then the tokens lack the claims), and clear required actions, which
   * version 24 may leave on a user created with a non-temporary credential.
   */
  async function settle(id: string): Promise<void> {
    const stored = await api.getUser(id)
    if (!hasAttributes(stored.attributes, attributes)) {
      throw new IdpMisconfiguredError(
        `realm "${realm}" dropped the attributes ${MARKETPLACE_ATTRIBUTES.join(', ')}: its user profile does not allow ` +
          'them. Set Realm settings → General → Unmanaged attributes to "Enabled" (or "Admin can edit"), or declare ' +
          'the attributes in the user profile (PUT /admin/realms/{realm}/users/profile).',
      )
    }
    if (stored.requiredActions?.length) {
      await api.updateUser(id, { requiredActions: [], emailVerified: true, enabled: true })
    }
  }

  /** Updates the marketplace attributes, sending the complete merged set so other systems' attributes survive. */
  async function refresh(existing: KeycloakUser): Promise<void> {
    const stored = existing.attributes ?? (await api.getUser(existing.id)).attributes
    if (hasAttributes(stored, attributes)) return
    await api.updateUser(existing.id, { attributes: { ...stored, ...attributes } })
    await settle(existing.id)
  }

  const existing = await api.findUser({ username })
  if (existing) {
    await refresh(existing)
    return { id: existing.id, username: existing.username, created: false, adopted: false }
  }
  const email = emailOf(user)
  try {
    const id = await api.createUser({
      username,
      email,
      enabled: true,
      emailVerified: true,
      attributes,
      credentials: [{ type: 'password', value: password, temporary: false }],
    })
    await settle(id)
    await api.assignRealmRole(id, PF_USER_ROLE)
    return { id, username, created: true, adopted: false }
  } catch (error) {
    if (!(error instanceof IdpConflictError)) throw error
    // A concurrent exchange created the same user first: use it.
    const raced = await api.findUser({ username })
    if (raced) {
      await refresh(raced)
      return { id: raced.id, username: raced.username, created: false, adopted: false }
    }
    // Another system's user holds the email: adopt it (spec, "Errors").
    const holder = await api.findUser({ email })
    if (!holder) throw error
    await api.updateUser(holder.id, { attributes: { ...holder.attributes, ...attributes } })
    await api.resetPassword(holder.id, password)
    await settle(holder.id)
    await api.assignRealmRole(holder.id, PF_USER_ROLE)
    return { id: holder.id, username: holder.username, created: false, adopted: true }
  }
}
