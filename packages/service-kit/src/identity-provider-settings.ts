import { checkProductionSecrets } from './check-production-secrets'
import type { EnvReader } from './env-reader'

export type IdpStyle = 'realm' | 'tenant'

/** `REALM_*`: the Keycloak server, realm, client and admin access. */
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

/** `TENANT_*`: the Auth0 tenant, application, connection and claim namespace. */
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

/** The identity provider a service talks to (`IDP_STYLE`) and its settings. */
export type IdentityProviderSettings =
  { style: 'realm'; realm: RealmSettings } | { style: 'tenant'; tenant: TenantSettings }

/** Auth0's default database connection (`DEFAULT_CONNECTION` of @pf/idp-clients, which this kit does not load). */
const DEFAULT_TENANT_CONNECTION = 'Username-Password-Authentication'

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
    connection: env.string('TENANT_CONNECTION', DEFAULT_TENANT_CONNECTION),
    audience: env.optional('TENANT_AUDIENCE'),
    claimNamespace: namespace,
    forwardedFor: env.bool('TENANT_FORWARDED_FOR', false),
  }
}

/** The client secret keys every derived password: a guessable one gives away every user's account. */
function checkSecrets(env: EnvReader, idp: IdentityProviderSettings): void {
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

/**
 * The identity-provider settings every service that talks to it reads the same way (the exchange, and the
 * webhook worker's `session.ended` handler): `IDP_STYLE`, then `REALM_*` or `TENANT_*`, with the production
 * check of their secrets. Problems are recorded on `env` (its `done()` reports them all).
 *
 * @example
 * const env = createEnvReader(process.env)
 * const idp = readIdentityProviderSettings(env)
 * env.done()
 */
export function readIdentityProviderSettings(env: EnvReader): IdentityProviderSettings {
  const style = env.oneOf('IDP_STYLE', ['realm', 'tenant'] as const)
  const idp: IdentityProviderSettings =
    style === 'realm' ? { style, realm: readRealmSettings(env) } : { style, tenant: readTenantSettings(env) }
  checkSecrets(env, idp)
  return idp
}
