import { DEFAULT_CONNECTION } from '@pf/idp-clients'
import {
  checkProductionSecrets,
  createEnvReader,
  readServerLimits,
  type Env,
  type ServerLimits,
} from '@pf/service-kit'

export type IdpStyle = 'realm' | 'tenant'

export interface RealmSettings {
  serverUrl: string
  realm: string
  clientId: string
  clientSecret: string
  adminUser: string
  adminPassword: string
  version: 24 | 25 | 26 | 'auto'
}

export interface TenantSettings {
  domain: string
  baseUrl: string
  clientId: string
  clientSecret: string
  connection: string
  audience?: string
  claimNamespace: string
}

export interface ExchangeConfig {
  port: number
  logLevel: string
  applicationId: string
  marketplace: { jwksUrl: string; issuer: string; clockToleranceSec: number }
  idp: { style: 'realm'; realm: RealmSettings } | { style: 'tenant'; tenant: TenantSettings }
  idpTimeoutMs: number
  warmCache: { ttlSeconds: number; maxEntries: number }
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
}

/** The exchange's settings, read once at start; throws a `ConfigError` naming every bad one. */
export function loadExchangeConfig(source: Env): ExchangeConfig {
  const env = createEnvReader(source)
  const style = env.oneOf('IDP_STYLE', ['realm', 'tenant'] as const)
  const base = {
    port: env.int('PORT', { default: 3003, min: 0, max: 65535 }),
    logLevel: env.string('LOG_LEVEL', 'info'),
    applicationId: env.required('PF_APPLICATION_ID', 'the marketplace application id tokens must carry'),
    marketplace: {
      jwksUrl: env.url('MARKETPLACE_JWKS_URL'),
      issuer: env.required('MARKETPLACE_ISSUER'),
      clockToleranceSec: env.int('MARKETPLACE_CLOCK_TOLERANCE_SECONDS', { default: 30, min: 0, max: 300 }),
    },
    idpTimeoutMs: env.int('IDP_TIMEOUT_MS', { default: 5000, min: 100, max: 60_000 }),
    warmCache: {
      ttlSeconds: env.int('WARM_CACHE_TTL_SECONDS', { default: 300, min: 0 }),
      maxEntries: env.int('WARM_CACHE_MAX_ENTRIES', { default: 10_000, min: 0 }),
    },
    server: readServerLimits(env),
  }
  let config: ExchangeConfig
  if (style === 'realm') {
    const versionText = env.oneOf('REALM_VERSION', ['24', '25', '26', 'auto'] as const, 'auto')
    config = {
      ...base,
      idp: {
        style,
        realm: {
          serverUrl: env.url('REALM_SERVER_URL'),
          realm: env.required('REALM_NAME'),
          clientId: env.required('REALM_CLIENT_ID'),
          clientSecret: env.required('REALM_CLIENT_SECRET'),
          adminUser: env.required('REALM_ADMIN_USER'),
          adminPassword: env.required('REALM_ADMIN_PASSWORD'),
          version: versionText === 'auto' ? 'auto' : (Number(versionText) as 24 | 25 | 26),
        },
      },
    }
  } else {
    const domain = env.required('TENANT_DOMAIN', 'e.g. acme.eu.auth0.com')
    const namespace = env.string('TENANT_CLAIM_NAMESPACE', 'https://pf.example.com/')
    if (!/^https?:\/\/.+\/$/.test(namespace))
      env.problem(`TENANT_CLAIM_NAMESPACE must be a URL ending with "/" (got "${namespace}")`)
    config = {
      ...base,
      idp: {
        style,
        tenant: {
          domain,
          baseUrl: env.url('TENANT_BASE_URL', `https://${domain}`),
          clientId: env.required('TENANT_CLIENT_ID'),
          clientSecret: env.required('TENANT_CLIENT_SECRET'),
          connection: env.string('TENANT_CONNECTION', DEFAULT_CONNECTION),
          audience: env.optional('TENANT_AUDIENCE'),
          claimNamespace: namespace,
        },
      },
    }
  }
  // The client secret keys every derived password: a guessable one gives away every user's account.
  const idp = config.idp.style === 'realm' ? config.idp.realm : config.idp.tenant
  checkProductionSecrets(env, [
    {
      name: `${config.idp.style === 'realm' ? 'REALM' : 'TENANT'}_CLIENT_SECRET`,
      values: [idp.clientSecret],
      minBytes: 32,
    },
    ...(config.idp.style === 'realm'
      ? [{ name: 'REALM_ADMIN_PASSWORD', values: [config.idp.realm.adminPassword], minBytes: 12 }]
      : []),
  ])
  env.done()
  return config
}
