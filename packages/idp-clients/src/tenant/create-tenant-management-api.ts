import { IdpMisconfiguredError, IdpRejectedError } from '../errors'
import type { IdpHttp, IdpRequest } from '../lib/http-client'
import { TokenCache } from '../lib/token-cache'
import { createTenantAccessCalls } from './create-tenant-access-calls'
import { createTenantTokenCalls } from './create-tenant-token-calls'
import type { TenantManagementCall, TenantManagementHttp } from './tenant-management-api'
import type { Auth0User, TenantClientOptions } from './tenant-types'

type ManagementOptions = Pick<TenantClientOptions, 'domain' | 'clientId' | 'clientSecret'>

/**
 * Management API calls with a management token (client credentials for `https://{domain}/api/v2/`): tokens
 * last 24 h, cached until 10 s before expiry, one request shared by concurrent callers. A 403
 * `insufficient_scope` is the set-up's fault: `IdpMisconfiguredError` naming the scope (README, Auth0 setup).
 */
function createManagementCall(
  request: IdpHttp,
  { domain, clientId, clientSecret }: ManagementOptions,
): TenantManagementCall & { token: () => Promise<string> } {
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

  const call = async <T>(config: IdpRequest) => {
    try {
      return await request<T>({
        ...config,
        url: `/api/v2${config.url}`,
        headers: { Authorization: `Bearer ${await managementTokens.get()}` },
      })
    } catch (error) {
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
  return Object.assign(call, { token: () => managementTokens.get() })
}

/**
 * The tenant's Management API v2 over HTTP (spec, C2): the user calls of the sync here, the calls about what
 * else a user holds and the ending of its sessions in `createTenantAccessCalls`. Role ids are cached by name:
 * assigning needs the id, and it does not change.
 */
export function createTenantManagementApi(
  request: IdpHttp,
  options: ManagementOptions,
): TenantManagementHttp {
  const management = createManagementCall(request, options)
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
  const users = async (what: string, url: string, params: Record<string, unknown>) =>
    (await management<Auth0User[]>({ what, method: 'GET', url, params })).data

  return {
    call: management,
    managementToken: management.token,
    searchUsers: (query) => users('search users', '/users', { q: query, search_engine: 'v3', per_page: 10 }),
    usersByEmail: (email) => users('users by email', '/users-by-email', { email }),
    async getUser(id) {
      try {
        return (await management<Auth0User>({ what: 'get user', method: 'GET', url: userPath(id) })).data
      } catch (error) {
        if (error instanceof IdpRejectedError && error.statusCode === 404) return null
        throw error
      }
    },
    async userRoles(id) {
      const url = `${userPath(id)}/roles`
      const { data } = await management<{ name: string }[]>({ what: 'user roles', method: 'GET', url })
      return data.map((role) => role.name)
    },
    async createUser(body) {
      return (await management<Auth0User>({ what: 'create user', method: 'POST', url: '/users', data: body }))
        .data
    },
    async patchUser(id, body) {
      await management({ what: 'update user', method: 'PATCH', url: userPath(id), data: body })
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
    ...createTenantTokenCalls(management),
  }
}
