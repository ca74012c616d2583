import { IdpMisconfiguredError } from '../errors'
import { PF_USER_ROLE } from '../pf-user-role'
import type { RealmAdminApi } from './realm-admin-api'
import type { KeycloakRole, KeycloakUser } from './realm-types'

/** The roles `pf-user` and the realm's default roles reach, composites expanded, by id. */
async function allowedRoles(api: RealmAdminApi, realm: string): Promise<Map<string, KeycloakRole>> {
  const allowed = new Map<string, KeycloakRole>()
  const queue = await Promise.all([api.role(PF_USER_ROLE), api.role(`default-roles-${realm}`)])
  for (let role = queue.shift(); role; role = queue.shift()) {
    if (allowed.has(role.id)) continue
    allowed.set(role.id, role)
    if (role.composite) queue.push(...(await api.roleComposites(role.id)))
  }
  return allowed
}

/**
 * Why Keycloak's `holder` may not be adopted, or undefined: adoption trusts the marketplace's email claim, so
 * it is for accounts where that trust is all that is at stake. Refused: an email not verified at the realm, a
 * disabled account, one stored in a user federation (LDAP, Kerberos: a reset would change the directory's
 * password) or linked to an identity provider, a credential beyond the password (a second factor), pending
 * required actions, a group or an organization (26), or an effective role (realm or client, composites and
 * groups expanded) outside what `pf-user` and `default-roles-<realm>` reach: sets of roles are compared, not
 * names. Reads only; fails closed (`IdpMisconfiguredError`) when the admin identity cannot see every role.
 */
export async function realmAdoptionRefusal(
  api: RealmAdminApi,
  { realm, version }: { realm: string; version: number },
  holder: KeycloakUser,
): Promise<string | undefined> {
  if (holder.emailVerified !== true) return 'its email is not verified in the realm'
  if (holder.enabled === false) return 'it is disabled'
  if (holder.federationLink) return 'it is stored in a user federation (LDAP or Kerberos), not in the realm'
  if ((holder.requiredActions ?? []).length > 0)
    return `it has pending required actions (${holder.requiredActions!.join(', ')})`
  const links = await api.identityProviderLinks(holder.id)
  if (links.length > 0) return `it is linked to identity providers (${links.join(', ')})`
  const factors = (await api.credentialTypes(holder.id)).filter((type) => type !== 'password')
  if (factors.length > 0) return `it has credentials beyond a password (${[...new Set(factors)].join(', ')})`
  if ((await api.groupCount(holder.id)) > 0) return 'it belongs to groups'
  if (version >= 26 && (await api.organizations(holder.id)).length > 0) return 'it belongs to an organization'

  const missing = await api.missingRoleVisibility()
  if (missing.length > 0) {
    throw new IdpMisconfiguredError(
      `adoption cannot see every role of the holder of the email: give the service account the realm-management ` +
        `roles ${missing.join(', ')}, or set ACCOUNT_ADOPTION=never`,
    )
  }
  const allowed = await allowedRoles(api, realm)
  // Client roles come from direct client mappings or through realm roles; the clients that matter are those
  // of the direct mappings and those the allowed roles reach (a role outside them is outside `allowed`).
  const clients = new Set([
    ...(await api.directClientIds(holder.id)),
    ...[...allowed.values()].filter((r) => r.clientRole && r.containerId).map((r) => r.containerId!),
  ])
  const effective = [
    ...(await api.effectiveRealmRoles(holder.id)),
    ...(await Promise.all([...clients].map((client) => api.effectiveClientRoles(holder.id, client)))).flat(),
  ]
  const extra = effective.filter((role) => !allowed.has(role.id)).map((role) => role.name)
  if (extra.length > 0)
    return `it holds roles beyond ${PF_USER_ROLE} and the realm's default roles (${[...new Set(extra)].join(', ')})`
  return undefined
}
