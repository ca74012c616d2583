// `node dist/doctor.js`: checks the exchange's configuration without serving; exit 1 on any failure.
import { createIdentityProvider, IDENTITY_PROVIDER_SETTINGS, type IdentityProvider } from '@pf/idp-clients'
import { DoctorProblem, redactUrl, runDoctorCommand, type DoctorCheck } from '@pf/service-kit'
import { loadExchangeConfig, type ExchangeConfig } from '../config'
import { providerGrantOf } from '../provider-grant'

/** GETs `url` and checks the JSON answer with `check`, which says what was found. */
async function getJson(url: string, check: (body: Record<string, unknown>) => string): Promise<string> {
  const shown = redactUrl(url)
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(4000) })
  } catch (error) {
    // fetch's own refusal (a URL with credentials) has no cause: its message says why.
    const { cause, message } = error as { cause?: { code?: string; message?: string }; message: string }
    throw new DoctorProblem(`${shown} does not answer (${cause?.code ?? cause?.message ?? message})`)
  }
  if (!res.ok) throw new DoctorProblem(`${shown} answered ${res.status}`)
  return check((await res.json()) as Record<string, unknown>)
}

/** What the identity-provider checks read: with one of them wrong, they are not run. */
const IDP_SETTINGS = [...IDENTITY_PROVIDER_SETTINGS, 'ACCOUNT_ADOPTION', 'EXCHANGE_*']

/**
 * What the identity provider's admin API tells of its set-up (`setupChecks`), one line each; one client, so one
 * admin token for all of them.
 */
const identityProviderSetup = (idp: IdentityProvider): DoctorCheck[] =>
  idp.setupChecks().map(({ name, run }) => ({
    name,
    needs: IDP_SETTINGS,
    run: async () => {
      const finding = await run()
      if (!finding.ok) throw new DoctorProblem(finding.problem, finding.fix)
      return finding.found
    },
  }))

const checks = (config: ExchangeConfig): DoctorCheck[] => {
  // No retries: the doctor reports, it does not wait out a fault.
  const idp = createIdentityProvider(config.idp, {
    timeoutMs: 4000,
    adoption: config.adoption,
    retry: { maxRetries: 0 },
    // EXCHANGE_GRANT=jwt-bearer: the server's version and feature, the provider and the client are checked.
    signInGrant: providerGrantOf(config.grant).signInGrant,
  })
  const discovery = idp.discovery.url
  return [
    {
      name: 'marketplace JWKS',
      needs: ['MARKETPLACE_JWKS_URL'],
      run: () =>
        getJson(config.marketplace.jwksUrl, (body) => {
          const keys = Array.isArray(body.keys) ? body.keys.length : 0
          if (keys === 0) throw new DoctorProblem('the JWKS holds no keys', 'check MARKETPLACE_JWKS_URL')
          return `${keys} key(s) at ${redactUrl(config.marketplace.jwksUrl)}`
        }),
    },
    {
      name: `identity provider (${idp.style})`,
      needs: IDP_SETTINGS,
      run: () =>
        getJson(discovery, (body) => {
          if (typeof body.token_endpoint !== 'string')
            throw new DoctorProblem(
              `${redactUrl(discovery)} has no token_endpoint`,
              'check the realm or tenant settings',
            )
          return `answers at ${redactUrl(discovery)}`
        }),
    },
    ...identityProviderSetup(idp),
  ]
}

runDoctorCommand(loadExchangeConfig, checks, {
  service: 'auth-exchange',
  checks: 'the marketplace JWKS and the identity provider answer; its set-up, as its admin API tells',
  argv: process.argv.slice(2),
  env: process.env,
})
