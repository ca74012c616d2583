import type { AssertionSigner } from './assertion/create-assertion-signer'

/**
 * How the exchange obtains a user's tokens (`EXCHANGE_GRANT`): `password` (the spec's flow: a password derived
 * from the user id and the client secret, the password grant) or `jwt-bearer` (Keycloak's JWT Authorization
 * Grant, RFC 7523: no password stored; the exchange signs an assertion for the user, whose account is linked to
 * the provider `providerAlias` with the marketplace user id as its federated user id).
 */
export type ExchangeGrant =
  | { type: 'password' }
  | {
      type: 'jwt-bearer'
      assertions: AssertionSigner
      /** The realm's identity provider of type "JWT Authorization Grant" whose issuer is the exchange. */
      providerAlias: string
    }

/**
 * The attribute that marks a password the exchange set (`pfPasswordSetBy` = `exchange`): a password-less mode
 * removes marked passwords, at the user's next exchange or in bulk; one without the mark was set by someone else.
 */
export const PASSWORD_MARK = { name: 'pfPasswordSetBy', value: 'exchange' } as const
