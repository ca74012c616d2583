import { decodeJwtPayload } from '../decode-jwt-payload'
import { IdpMisconfiguredError, IdpRejectedError } from '../errors'
import type { RealmAdminApi, RealmAdminCall } from './realm-admin-api'
import type { KeycloakRole, RealmClientOptions } from './realm-types'

/** Realm-management roles that let an admin identity view realm roles, and client roles (RolePermissions.canView). */
const ROLE_VISIBILITY = [
  ['view-realm', ['view-realm', 'manage-realm', 'realm-admin']],
  ['view-clients', ['view-clients', 'manage-clients', 'realm-admin']],
] as const

/** Keycloak 26: the names of the user's organizations; none when the realm has organizations turned off. */
async function organizationsOf(call: RealmAdminCall, adminPath: string, id: string): Promise<string[]> {
  // The realm's flag needs only view-realm; reading members needs manage-realm on 26.0.
  const { data: settings } = await call<{ organizationsEnabled?: boolean }>('realm', {
    method: 'GET',
    url: adminPath,
  })
  if (settings.organizationsEnabled === false) return []
  try {
    const url = `${adminPath}/organizations/members/${encodeURIComponent(id)}/organizations`
    return (await call<{ name: string }[]>('organizations', { method: 'GET', url })).data.map((o) => o.name)
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
}

/**
 * The admin API calls about what a user holds besides its password (roles with their composites and clients,
 * groups, credentials, identity-provider links, organizations, and what the admin identity may see of them),
 * and the ending of its sessions: `POST /users/{id}/logout` removes them and makes every earlier refresh token,
 * offline ones included, stale. A new password ends none of them.
 */
export function createRealmAccessCalls(
  call: RealmAdminCall,
  {
    adminPath,
    adminAuth,
    adminToken,
  }: { adminPath: string; adminAuth: RealmClientOptions['adminAuth']; adminToken: () => Promise<string> },
): Omit<
  RealmAdminApi,
  'findUsers' | 'getUser' | 'createUser' | 'updateUser' | 'resetPassword' | 'assignRealmRole' | 'role'
> {
  const userPath = (id: string) => `${adminPath}/users/${encodeURIComponent(id)}`
  const get = async <T>(what: string, url: string) => (await call<T>(what, { method: 'GET', url })).data
  return {
    roleComposites: (roleId) =>
      get<KeycloakRole[]>(
        'role composites',
        `${adminPath}/roles-by-id/${encodeURIComponent(roleId)}/composites`,
      ),
    async directClientIds(id) {
      const data = await get<{ clientMappings?: Record<string, { id?: string }> }>(
        'get role mappings',
        `${userPath(id)}/role-mappings`,
      )
      return Object.values(data.clientMappings ?? {}).flatMap(({ id: clientId }) =>
        clientId ? [clientId] : [],
      )
    },
    effectiveRealmRoles: (id) =>
      get<KeycloakRole[]>('effective realm roles', `${userPath(id)}/role-mappings/realm/composite`),
    effectiveClientRoles: (id, clientId) =>
      get<KeycloakRole[]>(
        'effective client roles',
        `${userPath(id)}/role-mappings/clients/${encodeURIComponent(clientId)}/composite`,
      ),
    // The count, not the list: GET /users/{id}/groups leaves out groups the caller may not view.
    groupCount: async (id) =>
      (await get<{ count: number }>('group count', `${userPath(id)}/groups/count`)).count,
    credentialTypes: async (id) =>
      (await get<{ type: string }[]>('credentials', `${userPath(id)}/credentials`)).map((c) => c.type),
    identityProviderLinks: async (id) =>
      (
        await get<{ identityProvider: string }[]>(
          'identity-provider links',
          `${userPath(id)}/federated-identity`,
        )
      ).map((link) => link.identityProvider),
    organizations: (id) => organizationsOf(call, adminPath, id),
    async missingRoleVisibility() {
      // A master-realm admin sees every role; a service account only what its realm-management roles allow.
      if (adminAuth !== 'client_credentials') return []
      const claims = decodeJwtPayload(await adminToken()) as {
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
