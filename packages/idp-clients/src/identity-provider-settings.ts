import type { RealmSettings } from './realm/realm-settings'
import type { SecretSetting } from './secret-setting'
import type { TenantSettings } from './tenant/tenant-settings'

/** The identity provider a service talks to (`IDP_STYLE`) and that style's settings under its name. */
export type IdentityProviderSettings =
  { style: 'realm'; realm: RealmSettings } | { style: 'tenant'; tenant: TenantSettings }

/** The vendor styles this package speaks (`IDP_STYLE`); each is one folder of `src/`. */
export type IdpStyle = IdentityProviderSettings['style']

/** Each style's own settings, by its name. */
export type StyleSettings = {
  [S in IdpStyle]: Extract<IdentityProviderSettings, { style: S }> extends Record<S, infer T> ? T : never
}

/** What `readIdentityProviderSettings` read from an environment. */
export interface IdentityProviderSettingsRead {
  /** The settings; with problems, each bad one at its default (what a `doctor` can still check). */
  settings: IdentityProviderSettings
  /** Every missing or bad setting, in words (`REALM_NAME is required`); none: the settings can be used. */
  problems: string[]
  /** The settings holding secrets, for the service's production check (no placeholder, long enough). */
  secrets: SecretSetting[]
}
