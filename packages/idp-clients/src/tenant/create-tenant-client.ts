import { IdpInvalidGrantError, IdpMisconfiguredError, IdpRejectedError } from '../errors'
import { createHttpClient, type IdpRequest } from '../lib/http-client'
import { TokenCache } from '../lib/token-cache'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import { createTenantAccessCalls } from './create-tenant-access-calls'
import { syncTenantUser, type TenantManagementApi } from './sync-tenant-user'
import type { Auth0User, TenantClientOptions } from './tenant-types'

const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm'

/** The database connection Auth0 creates by default. */
export const DEFAULT_CONNECTION = 'Username-Password-Authentication'

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
}: TenantClientOptions) {
  // Every call retries 408, 429 and 5xx, honouring Retry-After / x-ratelimit-reset, as the vendor SDK does.
  const request = createHttpClient({ baseUrl: baseUrl.replace(/\/+$/, ''), timeoutMs, retry, sleep })

  // Management tokens last 24 h: cached until 10 s before expiry, one request shared by concurrent callers.
  const managementTokens = new TokenCache(async () => {
    const { data } = await request<{ access_token: string; expires_in: number }>({
      what: 'management token',
      method: 'POST',
      url: '/oauth/token',
      data: {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        audience: `https://${domain}/api/v2/`,
      },
    })
    return { token: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 }
  }, 10_000)

  const management = async <T>(config: IdpRequest) => {
    try {
      return await request<T>({
        ...config,
        url: `/api/v2${config.url}`,
        headers: { Authorization: `Bearer ${await managementTokens.get()}` },
      })
    } catch (error) {
      // The machine-to-machine grant lacks a scope: a set-up fix, named in the answer (README, Auth0 setup).
      const body =
        error instanceof IdpRejectedError ? (error.body as { errorCode?: string; message?: string }) : {}
      if (error instanceof IdpRejectedError && body?.errorCode === 'insufficient_scope')
        throw new IdpMisconfiguredError(
          `${config.what}: the Management API grant of the application lacks a scope (${body.message ?? 'insufficient_scope'})`,
          { statusCode: error.statusCode, body: error.body, headers: error.headers },
        )
      throw error
    }
  }
  const userPath = (id: string) => `/users/${encodeURIComponent(id)}`
  const roleIds = new Map<string, string | null>()
  /** The id of the role of exactly this name (the filter is a case-insensitive match); null when none. */
  async function roleId(roleName: string): Promise<string | null> {
    if (!roleIds.has(roleName)) {
      const { data: roles } = await management<{ id: string; name: string }[]>({
        what: 'list roles',
        method: 'GET',
        url: '/roles',
        params: { name_filter: roleName },
      })
      roleIds.set(roleName, roles.find((r) => r.name === roleName)?.id ?? null)
    }
    return roleIds.get(roleName) ?? null
  }

  const api: TenantManagementApi = {
    async searchUsers(query) {
      const { data } = await management<Auth0User[]>({
        what: 'search users',
        method: 'GET',
        url: '/users',
        params: { q: query, search_engine: 'v3', per_page: 10 },
      })
      return data
    },
    async usersByEmail(email) {
      const { data } = await management<Auth0User[]>({
        what: 'users by email',
        method: 'GET',
        url: '/users-by-email',
        params: { email },
      })
      return data
    },
    async getUser(id) {
      try {
        return (await management<Auth0User>({ what: 'get user', method: 'GET', url: userPath(id) })).data
      } catch (error) {
        if (error instanceof IdpRejectedError && error.statusCode === 404) return null
        throw error
      }
    },
    async userRoles(id) {
      const { data } = await management<{ name: string }[]>({
        what: 'user roles',
        method: 'GET',
        url: `${userPath(id)}/roles`,
      })
      return data.map((role) => role.name)
    },
    async createUser(body) {
      return (await management<Auth0User>({ what: 'create user', method: 'POST', url: '/users', data: body }))
        .data
    },
    async patchUser(id, body) {
      await management({
        what: 'update user',
        method: 'PATCH',
        url: `/users/${encodeURIComponent(id)}`,
        data: body,
      })
    },
    async assignRole(id, roleName) {
      // No such role means nothing to assign (spec, C2 step 3).
      const found = await roleId(roleName)
      if (!found) return
      // Assigning a role the user has is a no-op: safe to re-assert on every sync.
      await management({
        what: 'assign role',
        method: 'POST',
        url: `${userPath(id)}/roles`,
        data: { roles: [found] },
      })
    },
    ...createTenantAccessCalls(management, roleId),
  }

  return {
    domain,

    /** See `syncTenantUser`: one marketplace user, one account, decided on immediately consistent reads. */
    syncUser: (user: MarketplaceUser, password: string): Promise<SyncedUser> =>
      syncTenantUser(api, { connection, adoption }, user, password),

    /**
     * The password grant against `connection` (`password-realm`, as the vendor SDKs send it: the plain
     * `password` grant only knows the tenant's default directory), `scope=openid profile email offline_access`,
     * `audience` only if configured. `forwardedFor`: the end user's IP as `auth0-forwarded-for`, so brute-force
     * protection counts per user, not per server (the application needs "Trust Token Endpoint IP Header").
     */
    async passwordGrant(
      username: string,
      password: string,
      { forwardedFor }: { forwardedFor?: string } = {},
    ): Promise<IdpTokens> {
      const { data } = await request<IdpTokens>({
        what: 'password grant',
        method: 'POST',
        url: '/oauth/token',
        headers: forwardedFor ? { 'auth0-forwarded-for': forwardedFor } : {},
        data: {
          grant_type: PASSWORD_REALM,
          realm: connection,
          client_id: clientId,
          client_secret: clientSecret,
          username,
          password,
          scope: 'openid profile email offline_access',
          ...(audience ? { audience } : {}),
        },
      })
      return data
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

    /**
     * Ends every session and refresh token of the tenant user `id` (Enterprise plans: per-user deletes; else its
     * refresh tokens through `/device-credentials`): a new password alone ends none of them.
     */
    endSessions: (id: string): Promise<void> => api.endSessions(id),

    /** Revokes a refresh token (spec, C2 step 5). */
    async logout(refreshToken: string): Promise<void> {
      await request({
        what: 'revoke',
        method: 'POST',
        url: '/oauth/revoke',
        data: { client_id: clientId, client_secret: clientSecret, token: refreshToken },
      })
    },

    /** Resolves when the tenant answers (for readiness checks). */
    async ping(): Promise<void> {
      await request({ what: 'jwks', method: 'GET', url: '/.well-known/jwks.json' })
    },

    issuer: `https://${domain}/`,
    jwksUri: `${baseUrl.replace(/\/+$/, '')}/.well-known/jwks.json`,
  }
}

export type TenantClient = ReturnType<typeof createTenantClient>
