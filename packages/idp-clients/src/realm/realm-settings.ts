import type { SettingsReader } from '../lib/settings-reader'
import type { SecretSetting } from '../secret-setting'

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

/** `REALM_*` (services/auth-exchange/README.md, "Settings"). */
export function readRealmSettings(env: SettingsReader): RealmSettings {
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

/** The client secret keys every derived password: a guessable one gives away every user's account. */
export const realmSecrets = (settings: RealmSettings): SecretSetting[] => [
  { name: 'REALM_CLIENT_SECRET', values: [settings.clientSecret], minBytes: 32 },
  ...(settings.adminPassword !== undefined
    ? [{ name: 'REALM_ADMIN_PASSWORD', values: [settings.adminPassword], minBytes: 12 }]
    : []),
]
