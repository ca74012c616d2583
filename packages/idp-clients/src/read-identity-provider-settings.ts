import type {
  IdentityProviderSettings,
  IdentityProviderSettingsRead,
  IdpStyle,
} from './identity-provider-settings'
import { STYLES } from './identity-provider-styles'
import { createSettingsReader, type Environment } from './lib/settings-reader'

/**
 * The names `readIdentityProviderSettings` reads: `IDP_STYLE` and every style's `<PREFIX>_*` (what a `doctor`'s
 * identity-provider checks need).
 */
export const IDENTITY_PROVIDER_SETTINGS: readonly string[] = [
  'IDP_STYLE',
  ...Object.values(STYLES).map(({ prefix }) => `${prefix}_*`),
]

/**
 * The identity-provider settings every service that talks to it reads alike (the exchange, its `doctor`, the
 * webhook worker's `session.ended` handler): `IDP_STYLE`, then that style's `REALM_*` or `TENANT_*`, from `env`
 * (never `process.env`). Problems are returned, not thrown, so that a service reports them with its own; the
 * secrets are named for its production check.
 *
 * @example
 * const { settings, problems } = readIdentityProviderSettings(process.env)
 * if (problems.length > 0) throw new Error(problems.join('; '))
 * const idp = createIdentityProvider(settings)
 */
export function readIdentityProviderSettings(env: Environment): IdentityProviderSettingsRead {
  const reader = createSettingsReader(env)
  const read = <S extends IdpStyle>(style: S) => {
    const own = STYLES[style].readSettings(reader)
    return { settings: { style, [style]: own }, secrets: STYLES[style].secrets(own) }
  }
  const { settings, secrets } = read(reader.oneOf('IDP_STYLE', Object.keys(STYLES) as IdpStyle[]))
  // The style's own settings stand under its name (`{ style: 'realm', realm: {…} }`).
  return { settings: settings as IdentityProviderSettings, problems: reader.problems, secrets }
}
