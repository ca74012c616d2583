import { createAssertionSigner, type ExchangeAssertionOptions } from '../assertion/exchange-assertion'
import { IdpInvalidGrantError, IdpRejectedError } from '../errors'
import type { IdpHttp } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser } from '../marketplace-user'

/** The `subject_token_type` of the exchange's Token Exchange Profile unless told otherwise: a URI of our own. */
export const TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE = 'urn:pf:exchange-assertion'
/** The assertion's claim naming the tenant user (services/auth-exchange/deploy/auth0/custom-token-exchange-action.js reads it). */
export const TOKEN_EXCHANGE_USER_ID_CLAIM = 'auth0_user_id'
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange'

export interface TenantTokenExchangeOptions {
  domain: string
  clientId: string
  clientSecret: string
  audience?: string
  assertion: ExchangeAssertionOptions
  subjectTokenType?: string
}

/**
 * Auth0's Custom Token Exchange (api/authentication/custom-token-exchange/get-token.mdx in github.com/auth0/docs-v2):
 * `POST /oauth/token`, form-encoded, `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`, the exchange's
 * assertion as `subject_token` (iss = the exchange, sub = the marketplace userId, `auth0_user_id` = the account,
 * aud = the tenant's issuer unless configured, at most 5 minutes, a fresh jti), `subject_token_type` naming the
 * profile whose Action verifies it and calls `setUserById`; the client's credentials, `scope` and `audience` as the
 * password grant sends them; `auth0-forwarded-for` so Suspicious IP Throttling counts the end user's address.
 */
export function createTenantTokenExchange(
  request: IdpHttp,
  {
    domain,
    clientId,
    clientSecret,
    audience,
    assertion,
    subjectTokenType = TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE,
  }: TenantTokenExchangeOptions,
) {
  const sign = createAssertionSigner(assertion)
  const exchange = async (
    accountId: string,
    user: MarketplaceUser,
    { forwardedFor }: { forwardedFor?: string } = {},
  ): Promise<IdpTokens> => {
    const subjectToken = sign({
      sub: user.userId,
      aud: `https://${domain}/`,
      claims: { [TOKEN_EXCHANGE_USER_ID_CLAIM]: accountId },
    })
    const { data } = await request<IdpTokens>({
      what: 'token exchange',
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(forwardedFor ? { 'auth0-forwarded-for': forwardedFor } : {}),
      },
      data: new URLSearchParams({
        grant_type: GRANT,
        client_id: clientId,
        client_secret: clientSecret,
        subject_token: subjectToken,
        subject_token_type: subjectTokenType,
        scope: 'openid profile email offline_access',
        ...(audience ? { audience } : {}),
      }).toString(),
    })
    return data
  }
  return {
    subjectTokenType,
    /** Tokens for the account `syncUser` just returned. */
    signIn: exchange,
    /**
     * Tokens for an account known to exist (the warm path): the Action's refusal of a user it cannot set (gone,
     * blocked, moved out of the connection) is `IdpInvalidGrantError`, so the caller syncs again.
     */
    async grant(accountId: string, user: MarketplaceUser, context: { forwardedFor?: string } = {}) {
      try {
        return await exchange(accountId, user, context)
      } catch (error) {
        const status = error instanceof IdpRejectedError ? (error.statusCode ?? 0) : 0
        if (status >= 400 && status < 500)
          throw new IdpInvalidGrantError(`token exchange: refused for a known account (${status})`, {
            statusCode: status,
            body: (error as IdpRejectedError).body,
            headers: (error as IdpRejectedError).headers,
          })
        throw error
      }
    },
  }
}
