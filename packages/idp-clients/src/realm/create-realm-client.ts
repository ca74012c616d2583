import { IdpInvalidGrantError } from '../errors'
import { PASSWORD_MARK } from '../password-mark'
import { createHttpClient } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import type { EndUserSessionsInput, EndUserSessionsResult } from '../session-ending'
import type { SetupCheck } from '../setup-check'
import { createRealmAdminApi } from './create-realm-admin-api'
import { createRealmJwtBearer } from './create-realm-jwt-bearer'
import { checkJwtBearerAtStart, realmJwtBearerChecks } from './realm-jwt-bearer-checks'
import { createRealmOidcApi } from './create-realm-oidc-api'
import { createRealmVersion } from './create-realm-version'
import { diagnoseNotSetUp } from './diagnose-not-set-up'
import { endRealmUserSessions } from './end-realm-user-sessions'
import { linkOf } from './find-linked-realm-user'
import type { RealmAdminApi } from './realm-admin-api'
import type { KeycloakUser, RealmClientOptions, RealmVersion } from './realm-types'
import { realmAttributesCheck, realmSetupChecks } from './realm-setup-checks'
import { syncRealmUser } from './sync-realm-user'

const descriptionOf = (error: unknown) =>
  ((error as IdpInvalidGrantError).body as { error_description?: string } | undefined)?.error_description ??
  ''

/**
 * Keycloak 24 leaves `UPDATE_PASSWORD` on a user created with a non-temporary password (spec, "Versioning"); a
 * create interrupted before the exchange removed it (a 503, a time-out, a crash) locks the account out. Only on
 * 24, only for an enabled account linked to this marketplace user whose sole pending action is that one: the
 * complete representation is PUT back with the list emptied. Any other action is an administrator's: kept.
 */
async function clearInterruptedCreate(
  api: RealmAdminApi,
  version: RealmVersion,
  stored: KeycloakUser,
  synced: SyncedUser,
): Promise<boolean> {
  const pending = stored.requiredActions ?? []
  if (version !== 24 || linkOf(stored) !== synced.pfUserId || stored.enabled === false) return false
  if (pending.length !== 1 || pending[0] !== 'UPDATE_PASSWORD') return false
  await api.updateUser({ ...stored, requiredActions: [] })
  return true
}

/** The mark of a password the exchange set (`PASSWORD_MARK`), on an account that lacks it (GET, then PUT). */
async function markPassword(api: RealmAdminApi, id: string): Promise<void> {
  const stored = await api.getUser(id)
  if (stored.attributes?.[PASSWORD_MARK.name]?.[0] === PASSWORD_MARK.value) return
  const attributes = { ...stored.attributes, [PASSWORD_MARK.name]: [PASSWORD_MARK.value] }
  await api.updateUser({ ...stored, attributes })
}

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
  const { serverUrl, realm, clientId, clientSecret, adoption = 'verified' } = options
  const request = createHttpClient({
    baseUrl: serverUrl.replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: options.retry,
  })
  const realmPath = `/realms/${encodeURIComponent(realm)}`
  // The admin API, the realm's OpenID Connect endpoints and the sync's decisions (syncRealmUser), put together.
  const api = createRealmAdminApi(request, options)
  const version = createRealmVersion(api, options.version ?? 'auto')
  const oidc = createRealmOidcApi(request, { realmPath, clientId, clientSecret })
  const adminPath = `/admin${realmPath}`
  const jwtBearer =
    options.jwtBearer &&
    createRealmJwtBearer(request, api.call, api, {
      ...options.jwtBearer,
      realmPath,
      adminPath,
      clientId,
      clientSecret,
    })

  return {
    realm,
    version,

    /** The JWT Authorization Grant's calls, when the client was given `jwtBearer`. */
    jwtBearer,

    /** See `syncRealmUser` (`password` undefined: none is set). */
    syncUser: async (user: MarketplaceUser, password: string | undefined): Promise<SyncedUser> =>
      syncRealmUser(api, { realm, version: await version(), adoption }, user, password),

    /** The password grant alone (spec, C1 step 4), `scope=openid`: the warm path. */
    passwordGrant: oidc.passwordGrant,

    /**
     * The password grant for a user `syncUser` just returned. Wrong credentials on an existing account of ours
     * mean the client secret (which keys the derived password) was rotated: the password is set again, once.
     * "Account is not fully set up" is explained (the realm's profile, or actions an administrator set), never
     * cured by clearing what is not ours.
     */
    async signIn(synced: SyncedUser, password: string, retried = false): Promise<IdpTokens> {
      try {
        return await oidc.passwordGrant(synced.username, password)
      } catch (error) {
        if (!(error instanceof IdpInvalidGrantError)) throw error
        if (/not fully set up/i.test(descriptionOf(error))) {
          const stored = await api.getUser(synced.id)
          if (!retried && (await clearInterruptedCreate(api, await version(), stored, synced)))
            return this.signIn(synced, password, true)
          throw diagnoseNotSetUp(stored, realm, error)
        }
        if (synced.created || !/invalid user credentials/i.test(descriptionOf(error))) throw error
        await api.resetPassword(synced.id, password)
        await markPassword(api, synced.id)
        return oidc.passwordGrant(synced.username, password)
      }
    },

    /**
     * Ends every session of the realm user `id` and makes its refresh tokens, offline ones included, stale
     * (`POST /admin/realms/{realm}/users/{id}/logout`): a new password alone ends none of them.
     */
    endSessions: (id: string): Promise<void> => api.logoutUser(id),

    /** See `endUserSessions`: the sessions of `pfUserId`'s account that started at or before `endedAt`. */
    endUserSessions: (input: EndUserSessionsInput): Promise<EndUserSessionsResult> =>
      endRealmUserSessions(api, { adminPath: `/admin${realmPath}`, clientId }, input),

    /** Ends the session of a refresh token (spec, C1 step 5). */
    logout(refreshToken: string): Promise<void> {
      return oidc.logout(refreshToken)
    },

    /**
     * See `realmSetupChecks`: what the admin API tells of the realm's set-up (for a `doctor`); with `jwtBearer`,
     * `realmJwtBearerChecks` stand for the password grant's client check.
     */
    setupChecks(): SetupCheck[] {
      const checks = realmSetupChecks(api.call, realm, clientId)
      if (!options.jwtBearer) return checks
      const { assertions, providerAlias } = options.jwtBearer
      const { issuer, lifetimeSec } = assertions
      const own = {
        request,
        call: api.call,
        realm,
        clientId,
        clientSecret,
        providerAlias,
        issuer,
        lifetimeSec,
      }
      return [...realmJwtBearerChecks(own), ...checks.filter((c) => c.name !== `realm client ${clientId}`)]
    },

    /** With `jwtBearer`: rejects a server older than 26.5.3 or without the feature (`checkJwtBearerAtStart`). */
    checkJwtBearerAtStart: (): Promise<void> =>
      options.jwtBearer ? checkJwtBearerAtStart(api.call) : Promise.resolve(),

    /**
     * The one set-up check a service runs at start: only administrators may edit the marketplace attributes,
     * which the lookups by `pfUserId` trust (see `realmSetupChecks`).
     */
    attributesCheck: (): SetupCheck => realmAttributesCheck(api.call, realm),

    /** Resolves when the realm answers (for readiness checks). */
    ping(): Promise<void> {
      return oidc.ping()
    },

    /** The realm's issuer and JWKS address, for verifying its tokens. */
    issuer: `${serverUrl.replace(/\/+$/, '')}${realmPath}`,
    jwksUri: `${serverUrl.replace(/\/+$/, '')}${realmPath}/protocol/openid-connect/certs`,
  }
}

export type RealmClient = ReturnType<typeof createRealmClient>
