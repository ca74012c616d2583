import { IdpInvalidGrantError, IdpMisconfiguredError } from '../errors'
import { createHttpClient } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import { createRealmAdminApi, FORM, form } from './create-realm-admin-api'
import type { RealmClientOptions, RealmVersion } from './realm-types'
import { syncRealmUser } from './sync-realm-user'

export { MARKETPLACE_ATTRIBUTES, REALM_USERNAME_PREFIX } from './sync-realm-user'

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
  const api = createRealmAdminApi(request, { realm, adminUser, adminPassword, adminTokenLeewayMs })

  return {
    realm,

    /** The server's major version: the configured one, or read from `/admin/serverinfo`. */
    async version(): Promise<RealmVersion> {
      if (version !== 'auto') return version
      const { data } = await api.call<{ systemInfo?: { version?: string } }>('server info', {
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

    /** See `syncRealmUser`: find by `pf-<userId>`, else create (or adopt the email's holder on 409). */
    syncUser: (user: MarketplaceUser, password: string): Promise<SyncedUser> =>
      syncRealmUser(api, realm, user, password),

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
        const user = await api.findUser({ username })
        if (!user) throw error
        await api.updateUser(user.id, { requiredActions: [], emailVerified: true, enabled: true })
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
