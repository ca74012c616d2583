import type { IdpHttp } from '../lib/http-client'
import type { IdpTokens } from '../marketplace-user'

const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm'

/**
 * The tenant's Authentication API calls the exchange makes with its application's credentials (spec, C2 steps
 * 4-5): the password grant in `connection`, the revocation of a refresh token, and the JWKS as a ping.
 */
export function createTenantAuthenticationApi(
  request: IdpHttp,
  {
    clientId,
    clientSecret,
    connection,
    audience,
  }: { clientId: string; clientSecret: string; connection: string; audience?: string },
) {
  return {
    /** The `password-realm` grant in `connection` (see `TenantClient.passwordGrant`). */
    async passwordGrant(
      username: string,
      password: string,
      { forwardedFor }: { forwardedFor?: string } = {},
    ): Promise<IdpTokens> {
      const { data } = await request<IdpTokens>({
        what: 'password grant',
        method: 'POST',
        url: '/oauth/token',
        headers: forwardedFor ? { 'auth0-forwarded-for': forwardedFor } : {},
        data: {
          grant_type: PASSWORD_REALM,
          realm: connection,
          client_id: clientId,
          client_secret: clientSecret,
          username,
          password,
          scope: 'openid profile email offline_access',
          ...(audience ? { audience } : {}),
        },
      })
      return data
    },

    /** Revokes a refresh token (spec, C2 step 5). */
    async logout(refreshToken: string): Promise<void> {
      await request({
        what: 'revoke',
        method: 'POST',
        url: '/oauth/revoke',
        data: { client_id: clientId, client_secret: clientSecret, token: refreshToken },
      })
    },

    /** Resolves when the tenant answers (for readiness checks). */
    async ping(): Promise<void> {
      await request({ what: 'jwks', method: 'GET', url: '/.well-known/jwks.json' })
    },
  }
}
