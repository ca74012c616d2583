import { IdpConflictError, IdpInvalidGrantError, IdpMisconfiguredError, IdpRejectedError } from '../errors'
import { createHttpClient, type IdpRequest } from '../lib/http-client'
import { jwtExpiry, TokenCache } from '../lib/token-cache'
import { emailOf, type IdpTokens, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import type { KeycloakUser, RealmClientOptions, RealmVersion } from './realm-types'

/** Spec, "Identity provider user": the deterministic realm username is `pf-<userId>`. */
export const REALM_USERNAME_PREFIX = 'pf-'
/** The realm role every marketplace user gets. */
export const PF_USER_ROLE = 'pf-user'
/** The custom attributes the exchange writes (and the realm's mappers turn into claims). */
export const MARKETPLACE_ATTRIBUTES = ['pfUserId', 'orgId', 'pfApplicationId'] as const

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }

function marketplaceAttributes(user: MarketplaceUser): Record<string, string[]> {
  return { pfUserId: [user.userId], orgId: [user.orgId], pfApplicationId: [user.applicationId] }
}

function hasAttributes(stored: KeycloakUser['attributes'], wanted: Record<string, string[]>): boolean {
  return Object.entries(wanted).every(
    ([name, values]) => stored?.[name]?.join('\u0000') === values.join('\u0000'),
  )
}

/**
 * A client for a realm-based identity provider (Keycloak 24, 25, 26).
 *
 * @example
 * const realm = createRealmClient({ serverUrl, realm: 'pf', clientId, clientSecret, adminUser, adminPassword })
 * const synced = await realm.syncUser(user, deriveRealmPassword(user.userId, clientSecret))
 * const tokens = await realm.passwordGrant(synced.username, password)
 */
export function createRealmClient({
  serverUrl,
  realm,
  clientId,
  clientSecret,
  adminUser,
  adminPassword,
  version = 'auto',
  timeoutMs = 10_000,
  adminTokenLeewayMs = 10_000,
}: RealmClientOptions) {
  const request = createHttpClient({ baseUrl: serverUrl.replace(/\/+$/, ''), timeoutMs })
  const realmPath = `/realms/${encodeURIComponent(realm)}`
  const adminPath = `/admin/realms/${encodeURIComponent(realm)}`

  const adminTokens = new TokenCache(async () => {
    const { data } = await request<{ access_token: string; expires_in: number }>({
      what: 'admin token',
      method: 'POST',
      url: '/realms/master/protocol/openid-connect/token',
      headers: FORM,
      data: form({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: adminUser,
        password: adminPassword,
      }),
    })
    return {
      token: data.access_token,
      expiresAt: jwtExpiry(data.access_token) ?? Date.now() + data.expires_in * 1000,
    }
  }, adminTokenLeewayMs)

  /** An admin API call; a 401 (token revoked or expired early) gets one retry with a fresh token. */
  async function admin<T>(what: string, config: Omit<IdpRequest, 'what'>, retried = false) {
    const token = await adminTokens.get()
    try {
      return await request<T>({
        ...config,
        what,
        headers: { ...config.headers, Authorization: `Bearer ${token}` },
      })
    } catch (error) {
      if (!retried && error instanceof IdpRejectedError && error.statusCode === 401) {
        adminTokens.invalidate()
        return admin<T>(what, config, true)
      }
      throw error
    }
  }

  const findUser = async (query: Record<string, string>) =>
    (
      await admin<KeycloakUser[]>('find user', {
        method: 'GET',
        url: `${adminPath}/users`,
        params: { ...query, exact: 'true' },
      })
    ).data[0] ?? null
  const getUser = async (id: string) =>
    (
      await admin<KeycloakUser>('get user', {
        method: 'GET',
        url: `${adminPath}/users/${encodeURIComponent(id)}`,
      })
    ).data
  const updateUser = (id: string, body: Partial<KeycloakUser>) =>
    admin('update user', { method: 'PUT', url: `${adminPath}/users/${encodeURIComponent(id)}`, data: body })
  const resetPassword = (id: string, value: string) =>
    admin('reset password', {
      method: 'PUT',
      url: `${adminPath}/users/${encodeURIComponent(id)}/reset-password`,
      data: { type: 'password', value, temporary: false },
    })

  async function createUser(body: Record<string, unknown>): Promise<string> {
    const { headers } = await admin('create user', { method: 'POST', url: `${adminPath}/users`, data: body })
    const id = String(headers.location ?? '')
      .split('/')
      .pop()
    if (!id) throw new IdpRejectedError('create user: no Location header in the answer', { statusCode: 201 })
    return id
  }

  async function assignRole(id: string, name: string): Promise<void> {
    const { data: role } = await admin<{ id: string; name: string }>('get role', {
      method: 'GET',
      url: `${adminPath}/roles/${encodeURIComponent(name)}`,
    })
    await admin('assign role', {
      method: 'POST',
      url: `${adminPath}/users/${encodeURIComponent(id)}/role-mappings/realm`,
      data: [{ id: role.id, name: role.name }],
    })
  }

  /**
   * After a create or an adoption: check the attributes stuck (a realm whose user profile does not allow
   * them drops them silently, and then the tokens lack the claims), and clear required actions, which
   * version 24 may leave on a user created with a non-temporary credential.
   */
  async function settle(id: string, attributes: Record<string, string[]>): Promise<void> {
    const stored = await getUser(id)
    if (!hasAttributes(stored.attributes, attributes)) {
      throw new IdpMisconfiguredError(
        `realm "${realm}" dropped the attributes ${MARKETPLACE_ATTRIBUTES.join(', ')}: its user profile does not allow ` +
          'them. Set Realm settings → General → Unmanaged attributes to "Enabled" (or "Admin can edit"), or declare ' +
          'the attributes in the user profile (PUT /admin/realms/{realm}/users/profile).',
      )
    }
    if (stored.requiredActions?.length) {
      await updateUser(id, { requiredActions: [], emailVerified: true, enabled: true })
    }
  }

  /** Updates the marketplace attributes, sending the complete merged set so other systems' attributes survive. */
  async function refresh(existing: KeycloakUser, attributes: Record<string, string[]>): Promise<void> {
    const stored = existing.attributes ?? (await getUser(existing.id)).attributes
    if (hasAttributes(stored, attributes)) return
    await updateUser(existing.id, { attributes: { ...stored, ...attributes } })
    await settle(existing.id, attributes)
  }

  return {
    realm,

    /** The server's major version: the configured one, or read from `/admin/serverinfo`. */
    async version(): Promise<RealmVersion> {
      if (version !== 'auto') return version
      const { data } = await admin<{ systemInfo?: { version?: string } }>('server info', {
        method: 'GET',
        url: '/admin/serverinfo',
      })
      const major = Number.parseInt(data.systemInfo?.version ?? '', 10)
      if (major < 24 || Number.isNaN(major)) {
        throw new IdpMisconfiguredError(
          `Keycloak ${data.systemInfo?.version ?? '(unknown)'} is not supported: 24 or newer is required`,
        )
      }
      return (major >= 26 ? 26 : major) as RealmVersion
    },

    /**
     * Creates or updates the realm user of a marketplace user (spec, C1 steps 2-3): found by `pf-<userId>`,
     * created with the derived password and the `pf-user` role, or, when another user already holds the email
     * (409), that user is adopted: given the attributes and the derived password.
     */
    async syncUser(user: MarketplaceUser, password: string): Promise<SyncedUser> {
      const username = `${REALM_USERNAME_PREFIX}${user.userId}`
      const attributes = marketplaceAttributes(user)
      const existing = await findUser({ username })
      if (existing) {
        await refresh(existing, attributes)
        return { id: existing.id, username: existing.username, created: false, adopted: false }
      }
      const email = emailOf(user)
      try {
        const id = await createUser({
          username,
          email,
          enabled: true,
          emailVerified: true,
          attributes,
          credentials: [{ type: 'password', value: password, temporary: false }],
        })
        await settle(id, attributes)
        await assignRole(id, PF_USER_ROLE)
        return { id, username, created: true, adopted: false }
      } catch (error) {
        if (!(error instanceof IdpConflictError)) throw error
        // A concurrent exchange created the same user first: use it.
        const raced = await findUser({ username })
        if (raced) {
          await refresh(raced, attributes)
          return { id: raced.id, username: raced.username, created: false, adopted: false }
        }
        // Another system's user holds the email: adopt it (spec, "Errors").
        const holder = await findUser({ email })
        if (!holder) throw error
        await updateUser(holder.id, { attributes: { ...holder.attributes, ...attributes } })
        await resetPassword(holder.id, password)
        await settle(holder.id, attributes)
        await assignRole(holder.id, PF_USER_ROLE)
        return { id: holder.id, username: holder.username, created: false, adopted: true }
      }
    },

    /**
     * Password grant at the realm (spec, C1 step 4), `scope=openid`. A refusal for pending required actions
     * (version 24) is cured once by clearing them.
     */
    async passwordGrant(username: string, password: string, cured = false): Promise<IdpTokens> {
      try {
        const { data } = await request<IdpTokens>({
          what: 'password grant',
          method: 'POST',
          url: `${realmPath}/protocol/openid-connect/token`,
          headers: FORM,
          data: form({
            grant_type: 'password',
            client_id: clientId,
            client_secret: clientSecret,
            username,
            password,
            scope: 'openid',
          }),
        })
        return data
      } catch (error) {
        const description = (
          (error as IdpInvalidGrantError).body as { error_description?: string } | undefined
        )?.error_description
        if (cured || !(error instanceof IdpInvalidGrantError) || !/not fully set up/i.test(description ?? ''))
          throw error
        const user = await findUser({ username })
        if (!user) throw error
        await updateUser(user.id, { requiredActions: [], emailVerified: true, enabled: true })
        return this.passwordGrant(username, password, true)
      }
    },

    /** Ends the session of a refresh token (spec, C1 step 5). */
    async logout(refreshToken: string): Promise<void> {
      await request({
        what: 'logout',
        method: 'POST',
        url: `${realmPath}/protocol/openid-connect/logout`,
        headers: FORM,
        data: form({ client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken }),
      })
    },

    /** Resolves when the realm answers (for readiness checks). */
    async ping(): Promise<void> {
      await request({
        what: 'discovery',
        method: 'GET',
        url: `${realmPath}/.well-known/openid-configuration`,
      })
    },

    /** The realm's issuer and JWKS address, for verifying its tokens. */
    issuer: `${serverUrl.replace(/\/+$/, '')}${realmPath}`,
    jwksUri: `${serverUrl.replace(/\/+$/, '')}${realmPath}/protocol/openid-connect/certs`,
  }
}

export type RealmClient = ReturnType<typeof createRealmClient>
