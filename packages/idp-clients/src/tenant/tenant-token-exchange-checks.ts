import { found, problem, type SetupCheck } from '../setup-check'
import type { TenantManagementHttp } from './tenant-management-api'
import { unlessUngranted } from './unless-ungranted'

const PASSWORD_GRANTS = ['password', 'http://auth0.com/oauth/grant-type/password-realm']
/** The Management API scopes the doctor reads the Custom Token Exchange set-up with (README, "Token exchange"). */
export const TOKEN_EXCHANGE_CHECK_SCOPES = [
  'read:token_exchange_profiles',
  'read:clients',
  'read:connections',
]

interface ClientFields {
  is_first_party?: boolean
  oidc_conformant?: boolean
  grant_types?: string[]
  token_exchange?: { allow_any_profile_of_type?: string[] }
}

/**
 * What Custom Token Exchange needs of the tenant (authenticate/custom-token-exchange/configure-custom-token-exchange.mdx
 * in github.com/auth0/docs-v2): a profile of type `custom_authentication` for the exchange's `subject_token_type`
 * (`GET /token-exchange-profiles`, read:token_exchange_profiles), and an application that is first-party,
 * OIDC-conformant and allowed `custom_authentication` profiles (`GET /clients/{id}`, read:clients); the password
 * grant off, since no one signs in with a password in this mode. The connection's check (enabled for the
 * application) is `tenantSetupChecks`'s.
 */
export function tenantTokenExchangeChecks(
  api: TenantManagementHttp,
  { clientId, subjectTokenType }: { clientId: string; subjectTokenType: string },
): SetupCheck[] {
  return [
    {
      name: 'tenant token exchange profile',
      run: () =>
        unlessUngranted('read:token_exchange_profiles', async () => {
          let from: string | undefined
          for (let page = 0; page < 5; page += 1) {
            const { data } = await api.call<{
              token_exchange_profiles?: {
                id: string
                name: string
                type?: string
                subject_token_type: string
                action_id: string
              }[]
              next?: string
            }>({
              what: 'list token exchange profiles',
              method: 'GET',
              url: '/token-exchange-profiles',
              params: { take: 50, ...(from ? { from } : {}) },
            })
            const match = data.token_exchange_profiles?.find((p) => p.subject_token_type === subjectTokenType)
            if (match && match.type !== 'custom_authentication')
              return problem(
                `profile ${match.name} is of type ${match.type}`,
                'make it a custom_authentication profile',
              )
            if (match) return found(`${match.name} (${match.id}) runs action ${match.action_id}`)
            if (!data.next) break
            from = data.next
          }
          return problem(
            `no Token Exchange Profile for ${subjectTokenType}`,
            'deploy services/auth-exchange/deploy/auth0/custom-token-exchange-action.js and create the profile (its README.md)',
          )
        }),
    },
    {
      name: 'tenant application for token exchange',
      run: () =>
        unlessUngranted('read:clients', async () => {
          const { data: client } = await api.call<ClientFields>({
            what: 'get client',
            method: 'GET',
            url: `/clients/${encodeURIComponent(clientId)}`,
            params: { fields: 'is_first_party,oidc_conformant,grant_types,token_exchange' },
          })
          if (client.is_first_party === false)
            return problem(`application ${clientId} is third-party`, 'use a first-party application')
          if (client.oidc_conformant !== true)
            return problem(
              `application ${clientId} is not OIDC-conformant`,
              'turn on OIDC Conformant (Application → Advanced settings → OAuth)',
            )
          if (!(client.token_exchange?.allow_any_profile_of_type ?? []).includes('custom_authentication'))
            return problem(
              `application ${clientId} may not use custom token exchange profiles`,
              'PATCH /api/v2/clients/{id} {"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}',
            )
          if ((client.grant_types ?? []).some((g) => PASSWORD_GRANTS.includes(g)))
            return problem(
              `application ${clientId} still allows the password grant, which no one uses in this mode`,
              'disable the Password grant (Application → Advanced settings → Grant Types)',
            )
          return found(
            `${clientId}: first-party, OIDC-conformant, custom_authentication allowed, no password grant`,
          )
        }),
    },
  ]
}
