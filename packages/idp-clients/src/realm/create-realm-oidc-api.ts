import type { IdpHttp } from '../lib/http-client'
import type { IdpTokens } from '../marketplace-user'
import { FORM, form } from './form'

/**
 * The realm's OpenID Connect endpoints the exchange calls with its confidential client (spec, C1 steps 4-5):
 * the password grant, the logout of a refresh token's session, and the discovery document as a ping.
 */
export function createRealmOidcApi(
  request: IdpHttp,
  { realmPath, clientId, clientSecret }: { realmPath: string; clientId: string; clientSecret: string },
) {
  return {
    /** The password grant alone (spec, C1 step 4), `scope=openid`. */
    async passwordGrant(username: string, password: string): Promise<IdpTokens> {
      const { data } = await request<IdpTokens>({
        what: 'password grant',
        method: 'POST',
        url: `${realmPath}/protocol/openid-connect/token`,
        headers: FORM,
        data: form({
          grant_type: 'password',
          client_id: clientId,
          client_secret: clientSecret,
          username,
          password,
          scope: 'openid',
        }),
      })
      return data
    },

    /** Ends the session of a refresh token (spec, C1 step 5). */
    async logout(refreshToken: string): Promise<void> {
      await request({
        what: 'logout',
        method: 'POST',
        url: `${realmPath}/protocol/openid-connect/logout`,
        headers: FORM,
        data: form({ client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken }),
      })
    },

    /** Resolves when the realm answers (for readiness checks). */
    async ping(): Promise<void> {
      await request({
        what: 'discovery',
        method: 'GET',
        url: `${realmPath}/.well-known/openid-configuration`,
      })
    },
  }
}
