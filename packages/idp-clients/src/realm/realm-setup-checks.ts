import { IdpRejectedError } from '../errors'
import { PF_USER_ROLE } from '../pf-user-role'
import { found, problem, type SetupCheck, type SetupFinding } from '../setup-check'
import type { RealmAdminCall } from './realm-admin-api'
import {
  attributesAdminOnly,
  keepsAttributes,
  verifyProfileFinding,
  type UserProfileConfig,
} from './realm-profile-findings'

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

const adminPathOf = (realm: string) => `/admin/realms/${encodeURIComponent(realm)}`
const readProfile = async (call: RealmAdminCall, realm: string) =>
  (
    await call<UserProfileConfig>('user profile', {
      method: 'GET',
      url: `${adminPathOf(realm)}/users/profile`,
    })
  ).data

/** `attributesAdminOnly` on the realm's user profile: a doctor line, and what the exchange logs at start. */
export function realmAttributesCheck(call: RealmAdminCall, realm: string): SetupCheck {
  return {
    name: 'realm marketplace attributes admin-only',
    run: async () => attributesAdminOnly(await readProfile(call, realm)),
  }
}

/**
 * The realm's set-up as the spec requires it (C1; idp-facts.md), read with the admin token: the client is
 * confidential with direct access grants; the user profile keeps `pfUserId` and lets only administrators edit
 * the marketplace attributes (`attributesAdminOnly`); the `pf-user` role exists; Verify
 * Profile (evaluated at every password grant) requires nothing the exchange does not write: the stock profile's
 * names are fine, the exchange sets them (the JWT's, else "Marketplace" / "User"; idp-facts.md).
 */
export function realmSetupChecks(call: RealmAdminCall, realm: string, clientId: string): SetupCheck[] {
  const get = async <T>(what: string, url: string, params?: Record<string, string>) =>
    (await call<T>(what, { method: 'GET', url: `${adminPathOf(realm)}${url}`, params })).data
  const profile = () => readProfile(call, realm)
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
    realmAttributesCheck(call, realm),
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
