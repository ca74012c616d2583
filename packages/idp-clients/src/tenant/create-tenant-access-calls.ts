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

/**
 * The Management API calls about what a user can do besides its password (its sessions and refresh tokens:
 * `createTenantTokenCalls`).
 */
export function createTenantAccessCalls(
  management: Management,
  roleId: (name: string) => Promise<string | null>,
): Pick<
  TenantManagementApi,
  'authenticationMethods' | 'organizations' | 'userPermissions' | 'rolePermissions'
> {
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
  }
}
