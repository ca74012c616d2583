import { IdpInvalidGrantError } from '../errors'
import { createHttpClient } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import type { EndUserSessionsInput, EndUserSessionsResult } from '../session-ending'
import type { SetupCheck } from '../setup-check'
import { createTenantAuthenticationApi } from './create-tenant-authentication-api'
import { createTenantManagementApi } from './create-tenant-management-api'
import { endTenantUserSessions } from './end-tenant-user-sessions'
import { removeMarkedTenantPasswords } from './remove-marked-tenant-passwords'
import { syncTenantUser } from './sync-tenant-user'
import { tenantSetupChecks } from './tenant-setup-checks'
import { createTenantTokenExchange } from './tenant-token-exchange'
import { DEFAULT_CONNECTION, type TenantClientOptions } from './tenant-types'

/**
 * A client for a tenant-based identity provider (Auth0 Authentication API and Management API v2).
 *
 * @example
 * const tenant = createTenantClient({ domain, clientId, clientSecret })
 * const synced = await tenant.syncUser(user, deriveTenantPassword(user.userId, clientSecret))
 * const tokens = await tenant.passwordGrant(synced.username, password)
 */
export function createTenantClient({
  domain,
  baseUrl = `https://${domain}`,
  clientId,
  clientSecret,
  connection = DEFAULT_CONNECTION,
  audience,
  adoption = 'verified',
  timeoutMs = 10_000,
  retry,
  sleep,
  signInGrant,
}: TenantClientOptions) {
  // Every call retries 408, 429 and 5xx, honouring Retry-After / x-ratelimit-reset, as the vendor SDK does.
  const root = baseUrl.replace(/\/+$/, '')
  const request = createHttpClient({ baseUrl: root, timeoutMs, retry, sleep })
  const api = createTenantManagementApi(request, { domain, clientId, clientSecret })
  const authApi = createTenantAuthenticationApi(request, { clientId, clientSecret, connection, audience })
  const tokenExchange =
    signInGrant?.type === 'token-exchange'
      ? createTenantTokenExchange(request, { domain, clientId, clientSecret, audience, ...signInGrant })
      : undefined

  return {
    domain,

    /** See `syncTenantUser`: one marketplace user, one account, decided on immediately consistent reads. */
    syncUser: (
      user: MarketplaceUser,
      password: string,
      mode?: { passwordless?: boolean },
    ): Promise<SyncedUser> => syncTenantUser(api, { connection, adoption }, user, password, mode),

    /** See `removeMarkedTenantPasswords`: the bulk side of a password-less mode. */
    removeMarkedPasswords: () => removeMarkedTenantPasswords(api, connection),

    /**
     * The password grant against `connection` (`password-realm`, as the vendor SDKs send it: the plain
     * `password` grant only knows the tenant's default directory), `scope=openid profile email offline_access`,
     * `audience` only if configured. `forwardedFor`: the end user's IP as `auth0-forwarded-for`, so brute-force
     * protection counts per user, not per server (the application needs "Trust Token Endpoint IP Header").
     */
    passwordGrant(
      username: string,
      password: string,
      { forwardedFor }: { forwardedFor?: string } = {},
    ): Promise<IdpTokens> {
      return authApi.passwordGrant(username, password, { forwardedFor })
    },

    /**
     * The password grant for a user `syncUser` just returned. "Wrong email or password." for an existing account
     * of ours means the client secret (which keys the derived password) was rotated: set again, once.
     */
    async signIn(
      synced: SyncedUser,
      password: string,
      context: { forwardedFor?: string } = {},
    ): Promise<IdpTokens> {
      try {
        return await this.passwordGrant(synced.username, password, context)
      } catch (error) {
        if (!(error instanceof IdpInvalidGrantError) || synced.created) throw error
        await api.patchUser(synced.id, { password, connection })
        return this.passwordGrant(synced.username, password, context)
      }
    },

    /** Ends all sessions and refresh tokens of user `id` (per-user deletes, else `/device-credentials`). */
    endSessions: (id: string): Promise<void> => api.endSessions(id),

    /** See `endUserSessions`: the refresh tokens of `pfUserId`'s account issued at or before `endedAt`. */
    endUserSessions: (input: EndUserSessionsInput): Promise<EndUserSessionsResult> =>
      endTenantUserSessions(api, connection, input),

    /** Revokes a refresh token (spec, C2 step 5). */
    logout(refreshToken: string): Promise<void> {
      return authApi.logout(refreshToken)
    },

    /** Custom Token Exchange sign-ins, with `signInGrant: { type: 'token-exchange' }` (see `createTenantTokenExchange`). */
    tokenExchange,

    /** See `tenantSetupChecks`: what the Management API tells of the tenant's set-up (for a `doctor`). */
    setupChecks: (): SetupCheck[] =>
      tenantSetupChecks(api, {
        clientId,
        connection,
        adoption,
        subjectTokenType: tokenExchange?.subjectTokenType,
      }),

    /** Resolves when the tenant answers (for readiness checks). */
    ping: (): Promise<void> => authApi.ping(),

    issuer: `https://${domain}/`,
    jwksUri: `${root}/.well-known/jwks.json`,
  }
}

export type TenantClient = ReturnType<typeof createTenantClient>
