// `node dist/doctor.js`: checks the exchange's configuration without serving; exit 1 on any failure.
import { createRealmClient, createTenantClient, type SetupCheck } from '@pf/idp-clients'
import { DoctorProblem, productionSecretsCheck, runDoctor, type DoctorCheck } from '@pf/service-kit'
import { loadExchangeConfig, type ExchangeConfig } from '../config'

/** GETs `url` and checks the JSON answer with `check`, which says what was found. */
async function getJson(url: string, check: (body: Record<string, unknown>) => string): Promise<string> {
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(4000) })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    throw new DoctorProblem(`${url} does not answer${cause ? ` (${cause})` : ''}`)
  }
  if (!res.ok) throw new DoctorProblem(`${url} answered ${res.status}`)
  return check((await res.json()) as Record<string, unknown>)
}

/**
 * What the identity provider's admin API tells of its set-up (@pf/idp-clients' `setupChecks`), one line each;
 * one client, so one admin token for all of them; no retries: the doctor reports, it does not wait out a fault.
 */
function identityProviderSetup({ idp, adoption }: ExchangeConfig): DoctorCheck[] {
  const options = { timeoutMs: 4000, adoption, retry: { maxRetries: 0 } }
  const setup: SetupCheck[] =
    idp.style === 'realm'
      ? createRealmClient({ ...idp.realm, ...options }).setupChecks()
      : createTenantClient({ ...idp.tenant, ...options }).setupChecks()
  return setup.map(({ name, run }) => ({
    name,
    run: async () => {
      const finding = await run()
      if (!finding.ok) throw new DoctorProblem(finding.problem, finding.fix)
      return finding.found
    },
  }))
}

const checks = (config: ExchangeConfig): DoctorCheck[] => {
  const { idp } = config
  const discovery =
    idp.style === 'realm'
      ? `${idp.realm.serverUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(idp.realm.realm)}/.well-known/openid-configuration`
      : `${idp.tenant.baseUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`
  return [
    productionSecretsCheck(loadExchangeConfig, process.env),
    {
      name: 'marketplace JWKS',
      run: () =>
        getJson(config.marketplace.jwksUrl, (body) => {
          const keys = Array.isArray(body.keys) ? body.keys.length : 0
          if (keys === 0) throw new DoctorProblem('the JWKS holds no keys', 'check MARKETPLACE_JWKS_URL')
          return `${keys} key(s) at ${config.marketplace.jwksUrl}`
        }),
    },
    {
      name: `identity provider (${idp.style})`,
      run: () =>
        getJson(discovery, (body) => {
          if (typeof body.token_endpoint !== 'string')
            throw new DoctorProblem(
              `${discovery} has no token_endpoint`,
              'check the realm or tenant settings',
            )
          return `answers at ${discovery}`
        }),
    },
    ...identityProviderSetup(config),
  ]
}

void runDoctor(() => loadExchangeConfig(process.env), checks).then((ok) => process.exit(ok ? 0 : 1))
