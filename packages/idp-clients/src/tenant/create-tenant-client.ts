import { IdpConflictError, IdpRateLimitedError } from '../errors'
import { createHttpClient, type IdpRequest } from '../lib/http-client'
import { TokenCache } from '../lib/token-cache'
import { emailOf, type IdpTokens, type MarketplaceUser, type SyncedUser } from '../marketplace-user'
import { exactTerm } from './lucene'
import { retryDelay } from './retry-delay'
import type { Auth0User, TenantClientOptions } from './tenant-types'

/** The database connection Auth0 creates by default. */
export const DEFAULT_CONNECTION = 'Username-Password-Authentication'
const PF_USER_ROLE = 'pf-user'

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

  const search = async (query: string) =>
    (
      await management<Auth0User[]>({
        what: 'search users',
        method: 'GET',
        url: '/users',
        params: { q: query, search_engine: 'v3' },
      })
    ).data

  const patch = (id: string, body: Record<string, unknown>) =>
    management<Auth0User>({
      what: 'update user',
      method: 'PATCH',
      url: `/users/${encodeURIComponent(id)}`,
      data: body,
    })

  async function assignRole(id: string): Promise<void> {
    const { data: roles } = await management<{ id: string; name: string }[]>({
      what: 'list roles',
      method: 'GET',
      url: '/roles',
      params: { name_filter: PF_USER_ROLE },
    })
    // The filter is a case-insensitive match: keep the exact name; no such role means nothing to assign.
    const role = roles.find((r) => r.name === PF_USER_ROLE)
    if (!role) return
    await management({
      what: 'assign role',
      method: 'POST',
      url: `/users/${encodeURIComponent(id)}/roles`,
      data: { roles: [role.id] },
    })
  }

  const metadataOf = (user: MarketplaceUser) => ({
    pfUserId: user.userId,
    orgId: user.orgId,
    pfApplicationId: user.applicationId,
  })
  const sameMetadata = (stored: Auth0User['app_metadata'], wanted: Record<string, string>) =>
    Object.entries(wanted).every(([key, value]) => stored?.[key] === value)

  return {
    domain,

    /**
     * Creates or updates the tenant user (spec, C2 steps 2-3): found by `app_metadata.pfUserId` (search engine
     * v3), its `app_metadata` patched when it changed; or created in the configured connection with the
     * derived password and given the `pf-user` role when the tenant has one. A 409 (the email exists in the
     * connection) adopts that user: metadata and derived password are set on it.
     */
    async syncUser(user: MarketplaceUser, password: string): Promise<SyncedUser> {
      const metadata = metadataOf(user)
      const email = emailOf(user)
      const [existing] = await search(exactTerm('app_metadata.pfUserId', user.userId))
      if (existing) {
        if (!sameMetadata(existing.app_metadata, metadata))
          await patch(existing.user_id, { app_metadata: metadata })
        return { id: existing.user_id, username: existing.email ?? email, created: false, adopted: false }
      }
      try {
        const { data: created } = await management<Auth0User>({
          what: 'create user',
          method: 'POST',
          url: '/users',
          data: { connection, email, email_verified: true, password, app_metadata: metadata },
        })
        await assignRole(created.user_id)
        return { id: created.user_id, username: created.email ?? email, created: true, adopted: false }
      } catch (error) {
        if (!(error instanceof IdpConflictError)) throw error
        const [holder] = await search(
          `${exactTerm('app_metadata.pfUserId', user.userId)} OR ${exactTerm('email', email)}`,
        )
        if (!holder) throw error
        const ours = holder.app_metadata?.pfUserId === user.userId
        await patch(
          holder.user_id,
          ours ? { app_metadata: metadata } : { app_metadata: metadata, password, connection },
        )
        if (!ours) await assignRole(holder.user_id)
        return { id: holder.user_id, username: holder.email ?? email, created: false, adopted: !ours }
      }
    },

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
