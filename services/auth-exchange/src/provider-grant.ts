import { createExchangeAssertions, type SignInGrant } from '@pf/idp-clients'
import type { ExchangeGrantConfig } from './exchange-grant-settings'

/**
 * What the identity provider is given for `EXCHANGE_GRANT` (`createIdentityProvider`'s `signInGrant`), and the
 * JWKS `/.well-known/jwks.json` publishes: both keys whenever keys are set (ahead of a switch from `password`
 * too). Both grants sign with `@pf/idp-clients`' one signer (`createAssertionSigner`): `jwt-bearer` (Keycloak)
 * through `createExchangeAssertions` (`iat` set back: no clock skew allowed), `token-exchange` (Auth0) given the
 * current key.
 */
export function providerGrantOf(config: ExchangeGrantConfig): {
  signInGrant: SignInGrant
  jwks?: () => { keys: object[] }
} {
  const assertions = config.assertion && createExchangeAssertions(config.assertion)
  const jwks = assertions?.jwks
  if (config.mode === 'password' || !assertions || !config.assertion)
    return { signInGrant: { type: 'password' }, jwks }
  if (config.mode === 'jwt-bearer')
    return { signInGrant: { type: 'jwt-bearer', assertions, providerAlias: config.providerAlias }, jwks }
  const { issuer, current, lifetimeSec } = config.assertion
  return {
    signInGrant: {
      type: 'token-exchange',
      assertion: { issuer, key: current, lifetimeSeconds: lifetimeSec },
    },
    jwks,
  }
}
