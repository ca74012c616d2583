import { IdpRejectedError } from '../errors'
import { MARKETPLACE_ATTRIBUTES } from '../marketplace-attributes'
import { PF_USER_ROLE } from '../pf-user-role'
import { found, problem, type SetupCheck, type SetupFinding } from '../setup-check'
import type { RealmAdminCall } from './realm-admin-api'

/** The parts of Keycloak's `UPConfig` (`GET /users/profile`, 24+) the checks read. */
interface UserProfileConfig {
  unmanagedAttributePolicy?: string
  attributes?: { name?: string; required?: { roles?: string[] }; permissions?: { edit?: string[] } }[]
}

/**
 * `ENABLED` and `ADMIN_EDIT` let the admin API write unmanaged attributes; `ADMIN_VIEW` shows them to admins
 * read-only (admin writes of them are ignored), so it drops `pfUserId` as no policy does
 * (UnmanagedAttributePolicy, Keycloak 24 server-spi; spec idp-facts.md "User profile").
 */
const KEEPS_UNMANAGED = ['ENABLED', 'ADMIN_EDIT']

function keepsAttributes(profile: UserProfileConfig): SetupFinding {
  const policy = profile.unmanagedAttributePolicy
  if (policy && KEEPS_UNMANAGED.includes(policy)) return found(`unmanagedAttributePolicy ${policy}`)
  const adminEdits = (name: string) =>
    profile.attributes?.some((a) => a.name === name && (a.permissions?.edit ?? ['admin']).includes('admin'))
  const dropped = MARKETPLACE_ATTRIBUTES.filter((name) => !adminEdits(name))
  if (dropped.length === 0) return found(`${MARKETPLACE_ATTRIBUTES.join(', ')} declared`)
  return problem(
    `${dropped.join(', ')} would be dropped: the user profile does not declare them and its unmanagedAttributePolicy is ${policy ?? 'off'}`,
    'set unmanagedAttributePolicy to ADMIN_EDIT (Realm settings → General → Unmanaged attributes) or declare them',
  )
}

/**
 * A read the exchange itself never makes (the clients list): a service account without the role to view it is
 * told, not failed.
 */
async function unlessForbidden(role: string, read: () => Promise<SetupFinding>): Promise<SetupFinding> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof IdpRejectedError && error.statusCode === 403)) throw error
    return found(`not checked: the admin account may not read it (realm-management ${role})`)
  }
}

/** What the exchange writes on every account it creates or adopts (names: the JWT's, else the fallback). */
const WRITTEN = new Set<string>(['username', 'email', 'firstName', 'lastName', ...MARKETPLACE_ATTRIBUTES])

/** Attributes the user profile requires of users (role `user`): Verify Profile demands them at every login. */
const requiredAtLogin = (profile: UserProfileConfig) =>
  (profile.attributes ?? [])
    .filter((a) => a.name && a.required?.roles?.includes('user'))
    .map((a) => a.name as string)

function verifyProfileFinding(profile: UserProfileConfig): SetupFinding {
  const required = requiredAtLogin(profile)
  const unwritten = required.filter((name) => !WRITTEN.has(name))
  if (unwritten.length > 0)
    return problem(
      `enabled, and the user profile requires ${unwritten.join(', ')} of every user, which the exchange never sets: its users get "Account is not fully set up" at every sign-in`,
      `make ${unwritten.join(', ')} optional in the user profile, or disable Verify Profile`,
    )
  const names = required.filter((name) => name === 'firstName' || name === 'lastName')
  return found(
    names.length > 0
      ? `enabled; the user profile requires ${names.join(', ')}, which the exchange sets (the JWT's names, else "Marketplace" / "User")`
      : 'enabled; the user profile requires nothing the exchange does not set',
  )
}

/**
 * The realm's set-up as the spec requires it (C1; idp-facts.md), read with the admin token: the client is
 * confidential with direct access grants; the user profile keeps `pfUserId`; the `pf-user` role exists; Verify
 * Profile (evaluated at every password grant) requires nothing the exchange does not write: the stock profile's
 * names are fine, the exchange sets them (the JWT's, else "Marketplace" / "User"; idp-facts.md).
 */
export function realmSetupChecks(call: RealmAdminCall, realm: string, clientId: string): SetupCheck[] {
  const adminPath = `/admin/realms/${encodeURIComponent(realm)}`
  const get = async <T>(what: string, url: string, params?: Record<string, string>) =>
    (await call<T>(what, { method: 'GET', url: `${adminPath}${url}`, params })).data
  const profile = () => get<UserProfileConfig>('user profile', '/users/profile')
  return [
    {
      name: `realm client ${clientId}`,
      run: () =>
        unlessForbidden('view-clients', async () => {
          const [client] = await get<{ publicClient?: boolean; directAccessGrantsEnabled?: boolean }[]>(
            'find client',
            '/clients',
            { clientId },
          )
          if (!client)
            return problem(
              `realm "${realm}" has no client ${clientId}`,
              'create it, or check REALM_CLIENT_ID',
            )
          if (client.publicClient !== false)
            return problem('the client is public', 'turn Client authentication on (a confidential client)')
          if (client.directAccessGrantsEnabled !== true)
            return problem('direct access grants are off', 'enable Direct access grants for the client')
          return found('confidential, direct access grants enabled')
        }),
    },
    { name: 'realm user profile keeps pfUserId', run: async () => keepsAttributes(await profile()) },
    {
      name: `realm role ${PF_USER_ROLE}`,
      run: async () => {
        try {
          await get('get role', `/roles/${encodeURIComponent(PF_USER_ROLE)}`)
          return found('exists')
        } catch (error) {
          if (!(error instanceof IdpRejectedError && error.statusCode === 404)) throw error
          return problem(
            `realm "${realm}" has no role ${PF_USER_ROLE}`,
            `create the realm role ${PF_USER_ROLE}`,
          )
        }
      },
    },
    {
      name: 'realm Verify Profile',
      run: async () => {
        const action = await get<{ enabled?: boolean }>(
          'required action',
          '/authentication/required-actions/VERIFY_PROFILE',
        )
        if (action.enabled === false) return found('disabled')
        return verifyProfileFinding(await profile())
      },
    },
  ]
}
