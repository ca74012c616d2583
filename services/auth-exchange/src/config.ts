import { DEFAULT_CONNECTION, type AccountAdoption } from '@pf/idp-clients'
import {
  checkProductionSecrets,
  createEnvReader,
  readOpsSettings,
  readServerLimits,
  type Env,
  type EnvReader,
  type OpsSettings,
  type ServerLimits,
} from '@pf/service-kit'

export type IdpStyle = 'realm' | 'tenant'

export interface RealmSettings {
  serverUrl: string
  realm: string
  clientId: string
  clientSecret: string
  /** `password`: the master realm's admin (spec); `client_credentials`: the client's service account. */
  adminAuth: 'password' | 'client_credentials'
  adminUser?: string
  adminPassword?: string
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
  /** Send the caller's IP as `auth0-forwarded-for` on the password grant. */
  forwardedFor: boolean
}

export interface ExchangeConfig {
  port: number
  logLevel: string
  applicationId: string
  marketplace: {
    jwksUrl: string
    issuer: string
    clockToleranceSec: number
    /** Oldest `iat` accepted, in seconds, when a token carries one; undefined (`off`): no limit. */
    maxTokenAgeSec: number | undefined
    /** Least time between two JWKS fetches caused by unknown `kid`s. */
    jwksCooldownMs: number
  }
  idp: { style: 'realm'; realm: RealmSettings } | { style: 'tenant'; tenant: TenantSettings }
  /** What a 409 on create may do with the existing holder of the email (`unlinked` is read as `verified`). */
  adoption: Exclude<AccountAdoption, 'unlinked'>
  idpTimeoutMs: number
  /** Overall deadline of one exchange; its provider calls and retries stay inside it. */
  deadlineMs: number
  warmCache: { ttlSeconds: number; maxEntries: number }
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
}

/** `REALM_*`: the Keycloak server, realm, client and admin access. */
function readRealmSettings(env: EnvReader): RealmSettings {
  const versionText = env.oneOf('REALM_VERSION', ['24', '25', '26', 'auto'] as const, 'auto')
  const adminAuth = env.oneOf('REALM_ADMIN_AUTH', ['password', 'client_credentials'] as const, 'password')
  return {
    serverUrl: env.url('REALM_SERVER_URL'),
    realm: env.required('REALM_NAME'),
    clientId: env.required('REALM_CLIENT_ID'),
    clientSecret: env.required('REALM_CLIENT_SECRET'),
    adminAuth,
    ...(adminAuth === 'password'
      ? {
          adminUser: env.required(
            'REALM_ADMIN_USER',
            'an admin of the master realm (REALM_ADMIN_AUTH=password)',
          ),
          adminPassword: env.required('REALM_ADMIN_PASSWORD'),
        }
      : {}),
    version: versionText === 'auto' ? 'auto' : (Number(versionText) as 24 | 25 | 26),
  }
}

/** `TENANT_*`: the Auth0 tenant, application, connection and claim namespace. */
function readTenantSettings(env: EnvReader): TenantSettings {
  const domain = env.required('TENANT_DOMAIN', 'e.g. acme.eu.auth0.com')
  const namespace = env.string('TENANT_CLAIM_NAMESPACE', 'https://pf.example.com/')
  if (!/^https?:\/\/.+\/$/.test(namespace))
    env.problem(`TENANT_CLAIM_NAMESPACE must be a URL ending with "/" (got "${namespace}")`)
  return {
    domain,
    baseUrl: env.url('TENANT_BASE_URL', `https://${domain}`),
    clientId: env.required('TENANT_CLIENT_ID'),
    clientSecret: env.required('TENANT_CLIENT_SECRET'),
    connection: env.string('TENANT_CONNECTION', DEFAULT_CONNECTION),
    audience: env.optional('TENANT_AUDIENCE'),
    claimNamespace: namespace,
    forwardedFor: env.bool('TENANT_FORWARDED_FOR', false),
  }
}

/** The client secret keys every derived password: a guessable one gives away every user's account. */
function checkSecrets(env: EnvReader, idp: ExchangeConfig['idp']): void {
  const settings = idp.style === 'realm' ? idp.realm : idp.tenant
  checkProductionSecrets(env, [
    {
      name: `${idp.style === 'realm' ? 'REALM' : 'TENANT'}_CLIENT_SECRET`,
      values: [settings.clientSecret],
      minBytes: 32,
    },
    ...(idp.style === 'realm' && idp.realm.adminPassword !== undefined
      ? [{ name: 'REALM_ADMIN_PASSWORD', values: [idp.realm.adminPassword], minBytes: 12 }]
      : []),
  ])
}

/** The exchange's settings, read once at start; throws a `ConfigError` naming every bad one. */
export function loadExchangeConfig(source: Env): ExchangeConfig {
  const env = createEnvReader(source)
  const style = env.oneOf('IDP_STYLE', ['realm', 'tenant'] as const)
  const port = env.int('PORT', { default: 3003, min: 0, max: 65535 })
  const base = {
    port,
    logLevel: env.string('LOG_LEVEL', 'info'),
    applicationId: env.required('PF_APPLICATION_ID', 'the marketplace application id tokens must carry'),
    marketplace: {
      jwksUrl: env.url('MARKETPLACE_JWKS_URL'),
      issuer: env.required('MARKETPLACE_ISSUER'),
      clockToleranceSec: env.int('MARKETPLACE_CLOCK_TOLERANCE_SECONDS', { default: 30, min: 0, max: 300 }),
      maxTokenAgeSec:
        env.optional('MARKETPLACE_MAX_TOKEN_AGE_SECONDS')?.toLowerCase() === 'off'
          ? undefined
          : env.int('MARKETPLACE_MAX_TOKEN_AGE_SECONDS', { default: 3600, min: 1 }),
      jwksCooldownMs: env.int('MARKETPLACE_JWKS_COOLDOWN_SECONDS', { default: 30, min: 0, max: 3600 }) * 1000,
    },
    // `unlinked`, the second wave's name, is read as `verified` (service contract, third wave).
    adoption:
      env.oneOf('ACCOUNT_ADOPTION', ['verified', 'unlinked', 'never'] as const, 'verified') === 'never'
        ? ('never' as const)
        : ('verified' as const),
    idpTimeoutMs: env.int('IDP_TIMEOUT_MS', { default: 5000, min: 100, max: 60_000 }),
    deadlineMs: env.int('EXCHANGE_DEADLINE_MS', { default: 8000, min: 100, max: 120_000 }),
    warmCache: {
      ttlSeconds: env.int('WARM_CACHE_TTL_SECONDS', { default: 300, min: 0 }),
      maxEntries: env.int('WARM_CACHE_MAX_ENTRIES', { default: 10_000, min: 0 }),
    },
    server: readServerLimits(env),
    ops: readOpsSettings(env, { port }),
  }
  const idp: ExchangeConfig['idp'] =
    style === 'realm' ? { style, realm: readRealmSettings(env) } : { style, tenant: readTenantSettings(env) }
  checkSecrets(env, idp)
  env.done()
  return { ...base, idp }
}
