import { IdpRateLimitedError } from '../errors'
import { createHttpClient, type IdpRequest } from '../lib/http-client'
import { TokenCache } from '../lib/token-cache'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import { retryDelay } from './retry-delay'
import { syncTenantUser, type TenantManagementApi } from './sync-tenant-user'
import type { Auth0User, TenantClientOptions } from './tenant-types'

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
  timeoutMs = 10_000,
  rateLimit: { maxRetries = 4, baseDelayMs = 250, maxDelayMs = 4000 } = {},
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}: TenantClientOptions) {
  const request = createHttpClient({ baseUrl: baseUrl.replace(/\/+$/, ''), timeoutMs })

  /** Any call, with 429s retried (bounded) after the delay the server asks for, or backoff with jitter. */
  async function withRetries<T>(config: IdpRequest) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await request<T>(config)
      } catch (error) {
        if (!(error instanceof IdpRateLimitedError) || attempt >= maxRetries) throw error
        await sleep(retryDelay(attempt, error.headers, { baseDelayMs, maxDelayMs }))
      }
    }
  }

  // Management tokens last 24 h: cached until 10 s before expiry, one request shared by concurrent callers.
  const managementTokens = new TokenCache(async () => {
    const { data } = await withRetries<{ access_token: string; expires_in: number }>({
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

  const management = async <T>(config: IdpRequest) =>
    withRetries<T>({
      ...config,
      url: `/api/v2${config.url}`,
      headers: { Authorization: `Bearer ${await managementTokens.get()}` },
    })

  const api: TenantManagementApi = {
    async searchUsers(query) {
      const { data } = await management<Auth0User[]>({
        what: 'search users',
        method: 'GET',
        url: '/users',
        params: { q: query, search_engine: 'v3' },
      })
      return data
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
      const { data: roles } = await management<{ id: string; name: string }[]>({
        what: 'list roles',
        method: 'GET',
        url: '/roles',
        params: { name_filter: roleName },
      })
      // The filter is a case-insensitive match: keep the exact name; no such role means nothing to assign.
      const role = roles.find((r) => r.name === roleName)
      if (!role) return
      await management({
        what: 'assign role',
        method: 'POST',
        url: `/users/${encodeURIComponent(id)}/roles`,
        data: { roles: [role.id] },
      })
    },
  }

  return {
    domain,

    /** See `syncTenantUser`: find by `app_metadata.pfUserId`, else create (or adopt the email's holder on 409). */
    syncUser: (user: MarketplaceUser, password: string): Promise<SyncedUser> =>
      syncTenantUser(api, connection, user, password),

    /** Password grant (spec, C2 step 4), `scope=openid profile email offline_access`, audience only if configured. */
    async passwordGrant(username: string, password: string): Promise<IdpTokens> {
      const { data } = await withRetries<IdpTokens>({
        what: 'password grant',
        method: 'POST',
        url: '/oauth/token',
        data: {
          grant_type: 'password',
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

    /** Revokes a refresh token (spec, C2 step 5). */
    async logout(refreshToken: string): Promise<void> {
      await withRetries({
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
