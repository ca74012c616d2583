import type { IdentityProvider, IdentityProviderOptions, SignInGrant } from './identity-provider'
import type { IdpStyle, StyleSettings } from './identity-provider-settings'
import type { SettingsReader } from './lib/settings-reader'
import { createRealmIdentityProvider } from './realm/create-realm-identity-provider'
import { readRealmSettings, realmSecrets } from './realm/realm-settings'
import type { SecretSetting } from './secret-setting'
import { createTenantIdentityProvider } from './tenant/create-tenant-identity-provider'
import { readTenantSettings, tenantSecrets } from './tenant/tenant-settings'

/** What one vendor style brings: its settings, which of them are secrets, and its `IdentityProvider`. */
export interface IdentityProviderStyle<S> {
  /** What its settings' names start with, before `_` (`REALM` for `REALM_NAME`). */
  prefix: string
  /** Its settings (`<PREFIX>_*`), each problem recorded on `env`. */
  readSettings(env: SettingsReader): S
  secrets(settings: S): SecretSetting[]
  /** The sign-in grants it implements (`IdentityProviderOptions.signInGrant`). */
  grants: readonly SignInGrant['type'][]
  create(settings: S, options: IdentityProviderOptions): IdentityProvider
}

/**
 * Every style, by its `IDP_STYLE` name: the one place where realm and tenant part. A third vendor is one more
 * folder implementing `IdentityProviderStyle` and one more line here (README, "Adding a third vendor").
 */
export const STYLES: { [S in IdpStyle]: IdentityProviderStyle<StyleSettings[S]> } = {
  realm: {
    prefix: 'REALM',
    readSettings: readRealmSettings,
    secrets: realmSecrets,
    grants: ['password', 'jwt-bearer'],
    create: createRealmIdentityProvider,
  },
  tenant: {
    prefix: 'TENANT',
    readSettings: readTenantSettings,
    secrets: tenantSecrets,
    grants: ['password', 'token-exchange'],
    create: createTenantIdentityProvider,
  },
}
