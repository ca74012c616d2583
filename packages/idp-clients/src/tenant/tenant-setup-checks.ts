import type { AccountAdoption } from '../account-adoption'
import { decodeJwtPayload } from '../decode-jwt-payload'
import { PF_USER_ROLE } from '../pf-user-role'
import { found, problem, type SetupCheck, type SetupFinding } from '../setup-check'
import type { TenantManagementHttp } from './tenant-management-api'
import { TOKEN_EXCHANGE_CHECK_SCOPES, tenantTokenExchangeChecks } from './tenant-token-exchange-checks'
import { unlessUngranted } from './unless-ungranted'

const PASSWORD_GRANTS = ['password', 'http://auth0.com/oauth/grant-type/password-realm']

/**
 * The Management API scopes the exchange's calls need (README, "Tenant client"; the exchange's README, Auth0
 * step 5): the sync, and unless adoption is `never` the adoption checks and the previous holder's sessions ended
 * on takeover (`/device-credentials`, every plan). The Enterprise plan's per-user session calls are used where
 * granted, not required.
 */
export function requiredManagementScopes(adoption: AccountAdoption): string[] {
  const sync = ['read:users', 'create:users', 'update:users', 'read:roles', 'create:role_members']
  const adopt = [
    'read:authentication_methods',
    'read:organizations',
    'read:device_credentials',
    'delete:device_credentials',
  ]
  return adoption === 'never' ? sync : [...sync, ...adopt]
}
/** What `endUserSessions` needs on every plan (the webhook worker's `IDP_SESSION_END=on`, a setting of its own). */
const SESSION_END_SCOPES = ['read:users', 'read:device_credentials', 'delete:device_credentials']
const ENTERPRISE_SCOPES = ['delete:sessions', 'read:refresh_tokens', 'delete:refresh_tokens']

const AUTHORIZE =
  'authorize them for the application (APIs → Auth0 Management API → Machine to Machine Applications)'

/**
 * With Custom Token Exchange (a password-less mode) the reads the set-up checks make are required too: without
 * them the doctor could not tell that the password grant is off, and a check it cannot make must not pass.
 */
function scopesFinding(token: string, adoption: AccountAdoption, tokenExchange: boolean): SetupFinding {
  const granted = new Set(String(decodeJwtPayload(token)?.scope ?? '').split(' '))
  const missing = requiredManagementScopes(adoption).filter((s) => !granted.has(s))
  if (missing.length > 0) return problem(`the grant lacks ${missing.join(', ')}`, AUTHORIZE)
  const unreadable = tokenExchange ? TOKEN_EXCHANGE_CHECK_SCOPES.filter((s) => !granted.has(s)) : []
  if (unreadable.length > 0)
    return problem(
      `the grant lacks ${unreadable.join(', ')}: the Custom Token Exchange set-up (profile, application, password grant off, connection) cannot be checked`,
      AUTHORIZE,
    )
  const sessionEnd = SESSION_END_SCOPES.filter((s) => !granted.has(s))
  const enterprise = ENTERPRISE_SCOPES.filter((s) => granted.has(s))
  return found(
    "cover the exchange's calls" +
      (enterprise.length ? ` (and ${enterprise.join(', ')})` : '') +
      (sessionEnd.length
        ? `; IDP_SESSION_END=on (webhook worker) would also need ${sessionEnd.join(', ')}`
        : ''),
  )
}

/**
 * The tenant's set-up as the spec requires it (C2; idp-facts.md), read with the management token: the password
 * grant is enabled for the application (with `subjectTokenType`, Custom Token Exchange's set-up instead:
 * `tenantTokenExchangeChecks`), the connection exists (a database) and is enabled for the application, the
 * `pf-user` role exists, and the token's `scope` claim covers what the exchange and the session-end handler call.
 */
export function tenantSetupChecks(
  api: TenantManagementHttp,
  {
    clientId,
    connection,
    adoption,
    subjectTokenType,
  }: { clientId: string; connection: string; adoption: AccountAdoption; subjectTokenType?: string },
): SetupCheck[] {
  const get = async <T>(what: string, url: string, params: Record<string, string>) =>
    (await api.call<T>({ what, method: 'GET', url, params })).data
  const passwordGrant: SetupCheck[] = [
    {
      name: 'tenant password grant',
      run: () =>
        unlessUngranted('read:clients', async () => {
          const url = `/clients/${encodeURIComponent(clientId)}`
          const { grant_types: grants = [] } = await get<{ grant_types?: string[] }>('get client', url, {
            fields: 'grant_types',
          })
          if (grants.some((g) => PASSWORD_GRANTS.includes(g))) return found(`enabled for ${clientId}`)
          return problem(
            `application ${clientId} does not allow the password grant (grant types: ${grants.join(', ') || 'none'})`,
            'enable the Password grant (Application → Advanced settings → Grant Types)',
          )
        }),
    },
  ]
  return [
    ...(subjectTokenType ? tenantTokenExchangeChecks(api, { clientId, subjectTokenType }) : passwordGrant),
    {
      name: `tenant connection ${connection}`,
      run: () =>
        unlessUngranted('read:connections', async () => {
          const list = await get<{ name: string; strategy?: string; enabled_clients?: string[] }[]>(
            'get connection',
            '/connections',
            { name: connection },
          )
          const match = list.find((c) => c.name === connection)
          if (!match)
            return problem('no such connection', 'create the database connection, or check TENANT_CONNECTION')
          if (match.strategy !== 'auth0')
            return problem(`a ${match.strategy ?? 'non-database'} connection`, 'use a database connection')
          if (match.enabled_clients && !match.enabled_clients.includes(clientId))
            return problem(
              `not enabled for application ${clientId}`,
              'enable the connection for the application (Application → Connections)',
            )
          return found('exists (database)')
        }),
    },
    {
      name: `tenant role ${PF_USER_ROLE}`,
      run: async () => {
        const roles = await get<{ name: string }[]>('list roles', '/roles', { name_filter: PF_USER_ROLE })
        if (roles.some((r) => r.name === PF_USER_ROLE)) return found('exists')
        return problem(`the tenant has no role ${PF_USER_ROLE}`, `create the role ${PF_USER_ROLE}`)
      },
    },
    {
      name: 'Management API scopes',
      run: async () => scopesFinding(await api.managementToken(), adoption, subjectTokenType !== undefined),
    },
  ]
}
