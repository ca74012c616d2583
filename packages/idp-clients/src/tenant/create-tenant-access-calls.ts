import { IdpRejectedError } from '../errors'
import type { TenantManagementApi, TenantManagementCall as Management } from './tenant-management-api'

const PAGE = 100
const userPath = (id: string) => `/users/${encodeURIComponent(id)}`
const permission = (p: { permission_name: string; resource_server_identifier: string }) =>
  `${p.permission_name} on ${p.resource_server_identifier}`

/** Every item of an offset-paged list (`include_totals=false`: plain arrays), within Auth0's 1000. */
async function allPages<T>(management: Management, what: string, url: string): Promise<T[]> {
  const items: T[] = []
  for (let page = 0; page < 1000 / PAGE; page += 1) {
    const params = { page, per_page: PAGE, include_totals: false }
    const { data } = await management<T[]>({ what, method: 'GET', url, params })
    items.push(...data)
    if (data.length < PAGE) break
  }
  return items
}

/** A 403 (scopes are checked before, see `management`) or 404: the tenant's plan lacks the endpoint. */
const notOnPlan = (error: unknown) =>
  error instanceof IdpRejectedError && (error.statusCode === 403 || error.statusCode === 404)

/**
 * The Management API calls about what a user can do besides its password, and the ending of its sessions:
 * Enterprise plans delete sessions and refresh tokens per user (`DELETE /users/{id}/sessions`, 202, scope
 * delete:sessions; `DELETE /users/{id}/refresh-tokens`, delete:refresh_tokens); every plan revokes refresh
 * tokens one by one through `/device-credentials` (read:device_credentials, delete:device_credentials;
 * auth0.com/docs/secure/tokens/refresh-tokens/revoke-refresh-tokens). A new password revokes neither.
 */
export function createTenantAccessCalls(
  management: Management,
  roleId: (name: string) => Promise<string | null>,
): Pick<
  TenantManagementApi,
  'authenticationMethods' | 'organizations' | 'userPermissions' | 'rolePermissions' | 'endSessions'
> {
  async function deleted(what: string, url: string): Promise<boolean> {
    try {
      await management({ what, method: 'DELETE', url })
      return true
    } catch (error) {
      if (notOnPlan(error)) return false
      throw error
    }
  }

  return {
    async authenticationMethods(id) {
      const methods = await allPages<{ type: string }>(
        management,
        'authentication methods',
        `${userPath(id)}/authentication-methods`,
      )
      return methods.map((method) => method.type)
    },
    async organizations(id) {
      const orgs = await allPages<{ name: string }>(
        management,
        'organizations',
        `${userPath(id)}/organizations`,
      )
      return orgs.map((org) => org.name)
    },
    async userPermissions(id) {
      return (
        await allPages<Parameters<typeof permission>[0]>(
          management,
          'user permissions',
          `${userPath(id)}/permissions`,
        )
      ).map(permission)
    },
    async rolePermissions(roleName) {
      const id = await roleId(roleName)
      if (!id) return []
      const url = `/roles/${encodeURIComponent(id)}/permissions`
      return (await allPages<Parameters<typeof permission>[0]>(management, 'role permissions', url)).map(
        permission,
      )
    },
    async endSessions(id) {
      await deleted('end sessions', `${userPath(id)}/sessions`)
      if (await deleted('revoke refresh tokens', `${userPath(id)}/refresh-tokens`)) return
      // Deleting shifts the pages: take the first page until it is empty.
      for (let round = 0; round < 50; round += 1) {
        const { data } = await management<{ id: string }[]>({
          what: 'list refresh tokens',
          method: 'GET',
          url: '/device-credentials',
          params: { user_id: id, type: 'refresh_token', page: 0, per_page: PAGE, include_totals: false },
        })
        for (const credential of data) {
          const url = `/device-credentials/${encodeURIComponent(credential.id)}`
          await management({ what: 'revoke refresh token', method: 'DELETE', url })
        }
        if (data.length < PAGE) return
      }
    },
  }
}
