import type { SettingsReader } from '../lib/settings-reader'
import type { SecretSetting } from '../secret-setting'
import { DEFAULT_CONNECTION } from './tenant-types'

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

/** `TENANT_*` (services/auth-exchange/README.md, "Settings"). */
export function readTenantSettings(env: SettingsReader): TenantSettings {
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
export const tenantSecrets = (settings: TenantSettings): SecretSetting[] => [
  { name: 'TENANT_CLIENT_SECRET', values: [settings.clientSecret], minBytes: 32 },
]
