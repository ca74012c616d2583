import { IdpRejectedError } from '../errors'
import type { IdpHttp, IdpRequest } from '../lib/http-client'
import { jwtExpiry, TokenCache } from '../lib/token-cache'
import type { RealmClientOptions } from './realm-types'
import type { KeycloakUser } from './realm-types'
import type { RealmAdminApi } from './sync-realm-user'

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

export interface RealmAdminHttp extends RealmAdminApi {
  /** Any other admin call, with the cached admin token (e.g. `/admin/serverinfo`). */
  call<T>(what: string, config: Omit<IdpRequest, 'what'>): Promise<{ data: T }>
}

/**
 * The realm admin API over HTTP (spec, C1 step 1 and "Admin API"): an admin token from the master realm's
 * `admin-cli`, cached until `adminTokenLeewayMs` before it expires and shared by concurrent callers; a 401
 * (token revoked or expired early) gets one retry with a fresh token.
 */
export function createRealmAdminApi(
  request: IdpHttp,
  {
    realm,
    adminUser,
    adminPassword,
    adminTokenLeewayMs = 10_000,
  }: Pick<RealmClientOptions, 'realm' | 'adminUser' | 'adminPassword' | 'adminTokenLeewayMs'>,
): RealmAdminHttp {
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

  async function call<T>(what: string, config: Omit<IdpRequest, 'what'>, retried = false) {
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
        return call<T>(what, config, true)
      }
      throw error
    }
  }
  const userPath = (id: string) => `${adminPath}/users/${encodeURIComponent(id)}`

  return {
    call,
    async findUser(query) {
      const { data } = await call<KeycloakUser[]>('find user', {
        method: 'GET',
        url: `${adminPath}/users`,
        params: { ...query, exact: 'true' },
      })
      return data[0] ?? null
    },
    async getUser(id) {
      return (await call<KeycloakUser>('get user', { method: 'GET', url: userPath(id) })).data
    },
    async createUser(body) {
      const { headers } = await call('create user', { method: 'POST', url: `${adminPath}/users`, data: body })
      const id = String((headers as Record<string, unknown>).location ?? '')
        .split('/')
        .pop()
      if (!id)
        throw new IdpRejectedError('create user: no Location header in the answer', { statusCode: 201 })
      return id
    },
    async updateUser(id, body) {
      await call('update user', { method: 'PUT', url: userPath(id), data: body })
    },
    async resetPassword(id, value) {
      await call('reset password', {
        method: 'PUT',
        url: `${userPath(id)}/reset-password`,
        data: { type: 'password', value, temporary: false },
      })
    },
    async assignRealmRole(id, roleName) {
      const { data: role } = await call<{ id: string; name: string }>('get role', {
        method: 'GET',
        url: `${adminPath}/roles/${encodeURIComponent(roleName)}`,
      })
      await call('assign role', {
        method: 'POST',
        url: `${userPath(id)}/role-mappings/realm`,
        data: [{ id: role.id, name: role.name }],
      })
    },
  }
}
