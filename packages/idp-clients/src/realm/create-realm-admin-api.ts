import { IdpRejectedError } from '../errors'
import type { IdpHttp, IdpRequest } from '../lib/http-client'
import { jwtExpiry, TokenCache } from '../lib/token-cache'
import { createRealmAccessCalls } from './create-realm-access-calls'
import { FORM, form } from './form'
import type { RealmAdminCall, RealmAdminHttp } from './realm-admin-api'
import type { KeycloakRole, KeycloakUser, RealmClientOptions } from './realm-types'

type AdminAuthOptions = Pick<
  RealmClientOptions,
  | 'realm'
  | 'adminAuth'
  | 'adminUser'
  | 'adminPassword'
  | 'clientId'
  | 'clientSecret'
  | 'adminTokenLeewayMs'
  | 'now'
>

/** The admin token request: the spec's master-realm `admin-cli` password grant, or the client's service account. */
function adminTokenRequest({
  realm,
  adminAuth = 'password',
  adminUser,
  adminPassword,
  clientId,
  clientSecret,
}: AdminAuthOptions): IdpRequest {
  if (adminAuth === 'client_credentials') {
    return {
      what: 'admin token (service account)',
      method: 'POST',
      url: `/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`,
      headers: FORM,
      data: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    }
  }
  return {
    what: 'admin token',
    method: 'POST',
    url: '/realms/master/protocol/openid-connect/token',
    headers: FORM,
    data: form({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: adminUser ?? '',
      password: adminPassword ?? '',
    }),
  }
}

/**
 * Admin calls with an admin token (master-realm `admin-cli`, or with `adminAuth: 'client_credentials'` the
 * client's own service account), cached until `adminTokenLeewayMs` before it expires and shared by concurrent
 * callers; a 401 (token revoked or expired early) gets one retry with a fresh token.
 */
function createAdminCall(request: IdpHttp, options: AdminAuthOptions) {
  const adminTokens = new TokenCache(
    async () => {
      const { data } = await request<{ access_token: string; expires_in: number }>(adminTokenRequest(options))
      return {
        token: data.access_token,
        expiresAt: jwtExpiry(data.access_token) ?? (options.now ?? Date.now)() + data.expires_in * 1000,
      }
    },
    options.adminTokenLeewayMs ?? 10_000,
    options.now,
  )

  const call: RealmAdminCall = async function call<T>(
    what: string,
    config: Omit<IdpRequest, 'what'>,
    retried = false,
  ): Promise<{ data: T; headers: unknown }> {
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
  return { call, adminToken: () => adminTokens.get() }
}

/**
 * The realm admin API over HTTP (spec, C1 step 1 and "Admin API"): the user calls of the sync here, the calls
 * about what else a user holds and the ending of its sessions in `createRealmAccessCalls`. Role ids are cached:
 * the role-mapping call needs id and name, and they do not change.
 */
export function createRealmAdminApi(request: IdpHttp, options: AdminAuthOptions): RealmAdminHttp {
  const adminPath = `/admin/realms/${encodeURIComponent(options.realm)}`
  const { call, adminToken } = createAdminCall(request, options)
  const userPath = (id: string) => `${adminPath}/users/${encodeURIComponent(id)}`
  const roles = new Map<string, Promise<KeycloakRole>>()
  const role = (name: string) => {
    let found = roles.get(name)
    if (!found) {
      found = call<KeycloakRole>('get role', {
        method: 'GET',
        url: `${adminPath}/roles/${encodeURIComponent(name)}`,
      }).then(({ data }) => ({
        id: data.id,
        name: data.name,
        composite: data.composite,
        clientRole: data.clientRole,
        containerId: data.containerId,
      }))
      found.catch(() => roles.delete(name))
      roles.set(name, found)
    }
    return found
  }

  return {
    call,
    async findUsers(query) {
      const { data } = await call<KeycloakUser[]>('find users', {
        method: 'GET',
        url: `${adminPath}/users`,
        params: { ...query, exact: 'true', briefRepresentation: 'false' },
      })
      return data
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
    async updateUser(user) {
      await call('update user', { method: 'PUT', url: userPath(user.id), data: user })
    },
    async resetPassword(id, value) {
      await call('reset password', {
        method: 'PUT',
        url: `${userPath(id)}/reset-password`,
        data: { type: 'password', value, temporary: false },
      })
    },
    async assignRealmRole(id, roleName) {
      const { id: roleId, name } = await role(roleName)
      // Adding a mapping the user already has is a no-op (204): safe to re-assert on every sync.
      await call('assign role', {
        method: 'POST',
        url: `${userPath(id)}/role-mappings/realm`,
        data: [{ id: roleId, name }],
      })
    },
    role,
    ...createRealmAccessCalls(call, { adminPath, adminAuth: options.adminAuth, adminToken }),
  }
}
