import { decodeJwtPayload } from '../decode-jwt-payload'
import { IdpMisconfiguredError, IdpRejectedError } from '../errors'
import type { IdpHttp, IdpRequest } from '../lib/http-client'
import { jwtExpiry, TokenCache } from '../lib/token-cache'
import type { RealmAdminApi } from './realm-admin-api'
import type { KeycloakRole, KeycloakUser, RealmClientOptions } from './realm-types'

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

export interface RealmAdminHttp extends RealmAdminApi {
  /** Any other admin call, with the cached admin token (e.g. `/admin/serverinfo`). */
  call<T>(what: string, config: Omit<IdpRequest, 'what'>): Promise<{ data: T }>
}

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

/** Realm-management roles that let an admin identity view realm roles, and client roles (RolePermissions.canView). */
const ROLE_VISIBILITY = [
  ['view-realm', ['view-realm', 'manage-realm', 'realm-admin']],
  ['view-clients', ['view-clients', 'manage-clients', 'realm-admin']],
] as const

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
 * The realm admin API over HTTP (spec, C1 step 1 and "Admin API"): an admin token (master-realm `admin-cli`, or
 * with `adminAuth: 'client_credentials'` the client's own service account), cached until `adminTokenLeewayMs`
 * before it expires and shared by concurrent callers; a 401 (token revoked or expired early) gets one retry
 * with a fresh token. Role ids are cached: the role-mapping call needs id and name, and they do not change.
 */
export function createRealmAdminApi(request: IdpHttp, options: AdminAuthOptions): RealmAdminHttp {
  const adminPath = `/admin/realms/${encodeURIComponent(options.realm)}`
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
    async roleComposites(roleId) {
      const url = `${adminPath}/roles-by-id/${encodeURIComponent(roleId)}/composites`
      return (await call<KeycloakRole[]>('role composites', { method: 'GET', url })).data
    },
    async directClientIds(id) {
      const { data } = await call<{ clientMappings?: Record<string, { id?: string }> }>('get role mappings', {
        method: 'GET',
        url: `${userPath(id)}/role-mappings`,
      })
      return Object.values(data.clientMappings ?? {}).flatMap(({ id: clientId }) =>
        clientId ? [clientId] : [],
      )
    },
    async effectiveRealmRoles(id) {
      const url = `${userPath(id)}/role-mappings/realm/composite`
      return (await call<KeycloakRole[]>('effective realm roles', { method: 'GET', url })).data
    },
    async effectiveClientRoles(id, clientId) {
      const url = `${userPath(id)}/role-mappings/clients/${encodeURIComponent(clientId)}/composite`
      return (await call<KeycloakRole[]>('effective client roles', { method: 'GET', url })).data
    },
    // The count, not the list: GET /users/{id}/groups leaves out groups the caller may not view.
    async groupCount(id) {
      const url = `${userPath(id)}/groups/count`
      return (await call<{ count: number }>('group count', { method: 'GET', url })).data.count
    },
    async credentialTypes(id) {
      const url = `${userPath(id)}/credentials`
      return (await call<{ type: string }[]>('credentials', { method: 'GET', url })).data.map((c) => c.type)
    },
    async identityProviderLinks(id) {
      const url = `${userPath(id)}/federated-identity`
      const { data } = await call<{ identityProvider: string }[]>('identity-provider links', {
        method: 'GET',
        url,
      })
      return data.map((link) => link.identityProvider)
    },
    async organizations(id) {
      // The realm's flag needs only view-realm; reading members needs manage-realm on 26.0.
      const { data: settings } = await call<{ organizationsEnabled?: boolean }>('realm', {
        method: 'GET',
        url: adminPath,
      })
      if (settings.organizationsEnabled === false) return []
      try {
        const url = `${adminPath}/organizations/members/${encodeURIComponent(id)}/organizations`
        return (await call<{ name: string }[]>('organizations', { method: 'GET', url })).data.map(
          (o) => o.name,
        )
      } catch (error) {
        if (!(error instanceof IdpRejectedError)) throw error
        const message = (error.body as { errorMessage?: string } | undefined)?.errorMessage ?? ''
        // Organizations.checkEnabled: a realm with organizations off has none.
        if (error.statusCode === 404 && /not enabled/i.test(message)) return []
        if (error.statusCode === 403)
          throw new IdpMisconfiguredError(
            'adoption cannot read the organizations of the holder of the email (Keycloak 26 asks for the ' +
              'realm-management role manage-realm): give it to the service account, or set ACCOUNT_ADOPTION=never',
          )
        throw error
      }
    },
    async missingRoleVisibility() {
      // A master-realm admin sees every role; a service account only what its realm-management roles allow.
      if (options.adminAuth !== 'client_credentials') return []
      const claims = decodeJwtPayload(await adminTokens.get()) as {
        resource_access?: Record<string, { roles?: string[] }>
      } | null
      const held = new Set(claims?.resource_access?.['realm-management']?.roles ?? [])
      return ROLE_VISIBILITY.filter(([, any]) => !any.some((r) => held.has(r))).map(([needed]) => needed)
    },
    async logoutUser(id) {
      await call('logout user', { method: 'POST', url: `${userPath(id)}/logout` })
    },
  }
}
