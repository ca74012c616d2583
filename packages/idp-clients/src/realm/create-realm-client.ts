import { IdpInvalidGrantError, IdpMisconfiguredError, IdpRejectedError } from '../errors'
import { createHttpClient } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import { createRealmAdminApi, FORM, form } from './create-realm-admin-api'
import { diagnoseNotSetUp } from './diagnose-not-set-up'
import type { KeycloakUser, RealmClientOptions, RealmVersion } from './realm-types'
import { linkOf, syncRealmUser } from './sync-realm-user'

export { MARKETPLACE_ATTRIBUTES, REALM_USERNAME_PREFIX } from './sync-realm-user'

const descriptionOf = (error: unknown) =>
  ((error as IdpInvalidGrantError).body as { error_description?: string } | undefined)?.error_description ??
  ''

/**
 * A client for a realm-based identity provider (Keycloak 24, 25, 26).
 *
 * @example
 * const realm = createRealmClient({ serverUrl, realm: 'pf', clientId, clientSecret, adminUser, adminPassword })
 * await realm.version() // refuses servers older than 24
 * const synced = await realm.syncUser(user, deriveRealmPassword(user.userId, clientSecret))
 * const tokens = await realm.signIn(synced, password)
 */
export function createRealmClient(options: RealmClientOptions) {
  const {
    serverUrl,
    realm,
    clientId,
    clientSecret,
    version: configured = 'auto',
    adoption = 'verified',
  } = options
  const request = createHttpClient({
    baseUrl: serverUrl.replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: options.retry,
  })
  const realmPath = `/realms/${encodeURIComponent(realm)}`
  const api = createRealmAdminApi(request, options)
  let known: Promise<RealmVersion> | undefined

  /** The server's major version: the configured one, or read once from `/admin/serverinfo`; < 24 is refused. */
  async function readVersion(): Promise<RealmVersion> {
    if (configured !== 'auto') return configured
    const { data } = await api
      .call<{ systemInfo?: { version?: string } }>('server info', { method: 'GET', url: '/admin/serverinfo' })
      .catch((error: unknown) => {
        // A service account of the realm may be refused the server's information (403): not a failure of ours.
        if (error instanceof IdpRejectedError && error.statusCode === 403)
          return { data: {} as { systemInfo?: { version?: string } } }
        throw error
      })
    const text = data.systemInfo?.version
    if (!text) {
      throw new IdpMisconfiguredError(
        'the server does not tell its version to this admin account: set REALM_VERSION (24, 25 or 26)',
      )
    }
    const major = Number.parseInt(text, 10)
    if (Number.isNaN(major) || major < 24)
      throw new IdpMisconfiguredError(`Keycloak ${text} is not supported: 24 or newer is required`)
    return (major >= 26 ? 26 : major) as RealmVersion
  }
  const version = () => {
    known ??= readVersion().catch((error: unknown) => {
      known = undefined // unreachable now is no answer: ask again next time
      throw error
    })
    return known
  }

  async function passwordGrant(username: string, password: string): Promise<IdpTokens> {
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
  }

  /**
   * Keycloak 24 leaves `UPDATE_PASSWORD` on a user created with a non-temporary password (spec, "Versioning"); a
   * create interrupted before the exchange removed it (a 503, a time-out, a crash) locks the account out. Only on
   * 24, only for an enabled account linked to this marketplace user whose sole pending action is that one: the
   * complete representation is PUT back with the list emptied. Any other action is an administrator's: kept.
   */
  async function clearInterruptedCreate(stored: KeycloakUser, synced: SyncedUser): Promise<boolean> {
    const pending = stored.requiredActions ?? []
    if ((await version()) !== 24 || linkOf(stored) !== synced.pfUserId || stored.enabled === false)
      return false
    if (pending.length !== 1 || pending[0] !== 'UPDATE_PASSWORD') return false
    await api.updateUser({ ...stored, requiredActions: [] })
    return true
  }

  return {
    realm,
    version,

    /** See `syncRealmUser`: one marketplace user, one account, found by username, created, or adopted by policy. */
    syncUser: async (user: MarketplaceUser, password: string): Promise<SyncedUser> =>
      syncRealmUser(api, { realm, version: await version(), adoption }, user, password),

    /** The password grant alone (spec, C1 step 4), `scope=openid`: the warm path. */
    passwordGrant,

    /**
     * The password grant for a user `syncUser` just returned. Wrong credentials on an existing account of ours
     * mean the client secret (which keys the derived password) was rotated: the password is set again, once.
     * "Account is not fully set up" is explained (the realm's profile, or actions an administrator set), never
     * cured by clearing what is not ours.
     */
    async signIn(synced: SyncedUser, password: string, retried = false): Promise<IdpTokens> {
      try {
        return await passwordGrant(synced.username, password)
      } catch (error) {
        if (!(error instanceof IdpInvalidGrantError)) throw error
        if (/not fully set up/i.test(descriptionOf(error))) {
          const stored = await api.getUser(synced.id)
          if (!retried && (await clearInterruptedCreate(stored, synced)))
            return this.signIn(synced, password, true)
          throw diagnoseNotSetUp(stored, realm, error)
        }
        if (synced.created || !/invalid user credentials/i.test(descriptionOf(error))) throw error
        await api.resetPassword(synced.id, password)
        return passwordGrant(synced.username, password)
      }
    },

    /**
     * Ends every session of the realm user `id` and makes its refresh tokens, offline ones included, stale
     * (`POST /admin/realms/{realm}/users/{id}/logout`): a new password alone ends none of them.
     */
    endSessions: (id: string): Promise<void> => api.logoutUser(id),

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
