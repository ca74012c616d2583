import { PF_USER_ROLE } from '../pf-user-role'
import type { TenantManagementApi } from './tenant-management-api'
import type { Auth0User } from './tenant-types'

/**
 * Why Auth0's `holder` (a user of `connection`) may not be adopted, or undefined: adoption trusts the
 * marketplace's email claim, so it is for accounts where that trust is all that is at stake. Refused: an email
 * not verified by the tenant, a blocked user, identities linked from other connections (a social or enterprise
 * login), an authentication method beyond the password (a second factor), an organization, a role other than
 * `pf-user`, or a permission beyond those `pf-user` gives. Reads only.
 */
export async function tenantAdoptionRefusal(
  api: TenantManagementApi,
  connection: string,
  holder: Auth0User,
): Promise<string | undefined> {
  if (holder.email_verified !== true) return 'its email is not verified by the tenant'
  if (holder.blocked === true) return 'it is blocked'
  const others = (holder.identities ?? []).filter((identity) => identity.connection !== connection)
  if (others.length > 0)
    return `it is linked to other identities (${others.map((identity) => identity.connection).join(', ')})`
  const factors = (await api.authenticationMethods(holder.user_id)).filter((type) => type !== 'password')
  if (factors.length > 0)
    return `it has authentication methods beyond a password (${[...new Set(factors)].join(', ')})`
  if ((await api.organizations(holder.user_id)).length > 0) return 'it belongs to an organization'
  const roles = (await api.userRoles(holder.user_id)).filter((name) => name !== PF_USER_ROLE)
  if (roles.length > 0) return `it holds roles beyond ${PF_USER_ROLE} (${roles.join(', ')})`
  const allowed = new Set(await api.rolePermissions(PF_USER_ROLE))
  const extra = (await api.userPermissions(holder.user_id)).filter((permission) => !allowed.has(permission))
  if (extra.length > 0)
    return `it holds permissions beyond ${PF_USER_ROLE}'s (${[...new Set(extra)].join(', ')})`
  return undefined
}
