import { IdpMisconfiguredError } from './errors'
import type { IdentityProvider, IdentityProviderOptions } from './identity-provider'
import type { IdentityProviderSettings, IdpStyle, StyleSettings } from './identity-provider-settings'
import { STYLES } from './identity-provider-styles'

/**
 * The `IdentityProvider` of the style the settings name (`readIdentityProviderSettings`), for every caller: the
 * exchange, a `doctor`, the webhook worker.
 *
 * @example
 * const idp = createIdentityProvider(settings, { adoption: 'verified', timeoutMs: 5000 })
 */
export function createIdentityProvider(
  settings: IdentityProviderSettings,
  options: IdentityProviderOptions = {},
): IdentityProvider {
  const grant = options.signInGrant?.type ?? 'password'
  if (!STYLES[settings.style].grants.includes(grant))
    throw new IdpMisconfiguredError(
      `the ${settings.style} style has no ${grant} sign-in (it has ${STYLES[settings.style].grants.join(', ')})`,
    )
  const create = <S extends IdpStyle>(style: S, own: StyleSettings[S]) => STYLES[style].create(own, options)
  // The style's own settings stand under its name (`{ style: 'realm', realm: {…} }`).
  return create(settings.style, (settings as unknown as StyleSettings)[settings.style])
}
