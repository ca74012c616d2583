import { createAssertionSigner, type AssertionSigner, type ExchangeGrant } from '@pf/idp-clients'
import type { ExchangeGrantConfig } from './exchange-grant-settings'

/**
 * What the identity provider is given for `EXCHANGE_GRANT` (`createIdentityProvider`'s `grant`), and the signer
 * whose keys `/.well-known/jwks.json` publishes (whenever keys are set: ahead of a switch to `jwt-bearer` too).
 */
export function providerGrantOf(config: ExchangeGrantConfig): {
  grant: ExchangeGrant
  signer?: AssertionSigner
} {
  const signer = config.assertion && createAssertionSigner(config.assertion)
  if (config.mode === 'password' || !signer) return { grant: { type: 'password' }, signer }
  return { grant: { type: 'jwt-bearer', assertions: signer, providerAlias: config.providerAlias }, signer }
}
