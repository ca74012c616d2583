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
  if (options.grant?.type === 'jwt-bearer' && settings.style !== 'realm')
    throw new IdpMisconfiguredError(
      "EXCHANGE_GRANT=jwt-bearer is Keycloak's JWT Authorization Grant: IDP_STYLE=realm only",
    )
  const create = <S extends IdpStyle>(style: S, own: StyleSettings[S]) => STYLES[style].create(own, options)
  // The style's own settings stand under its name (`{ style: 'realm', realm: {…} }`).
  return create(settings.style, (settings as unknown as StyleSettings)[settings.style])
}
