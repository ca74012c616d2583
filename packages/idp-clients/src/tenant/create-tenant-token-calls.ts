import { IdpRejectedError } from '../errors'
import type { TenantManagementApi, TenantManagementCall as Management } from './tenant-management-api'

const PAGE = 100
/** Bounds of the listing loops: 50 pages of 100 (Auth0 keeps at most 200 refresh tokens a user and application). */
const ROUNDS = 50
const userPath = (id: string) => `/users/${encodeURIComponent(id)}`

/** A 403 (scopes are checked before, see `management`) or 404: the tenant's plan lacks the endpoint. */
const notOnPlan = (error: unknown) =>
  error instanceof IdpRejectedError && (error.statusCode === 403 || error.statusCode === 404)

/**
 * The Management API calls about a user's sessions and refresh tokens. Enterprise plans list and delete them per
 * user and one by one (`GET /users/{id}/refresh-tokens`, cursor `from`/`take`, answering `{tokens, next}`;
 * `DELETE /refresh-tokens/{id}`; `DELETE /users/{id}/sessions`, `/refresh-tokens`: read:refresh_tokens,
 * delete:refresh_tokens, delete:sessions; auth0.com/docs/secure/tokens/manage-refresh-tokens-with-auth0-management-api);
 * every plan revokes refresh tokens one by one through `/device-credentials` (read:device_credentials,
 * delete:device_credentials; auth0.com/docs/secure/tokens/refresh-tokens/revoke-refresh-tokens), whose entries
 * carry no issue time. A new password revokes none of them.
 */
export function createTenantTokenCalls(
  management: Management,
): Pick<
  TenantManagementApi,
  'endSessions' | 'refreshTokens' | 'deleteRefreshToken' | 'deviceRefreshTokens' | 'revokeDeviceRefreshTokens'
> {
  async function deleted(what: string, url: string): Promise<boolean> {
    try {
      await management({ what, method: 'DELETE', url })
      return true
    } catch (error) {
      if (notOnPlan(error)) return false
      throw error
    }
  }
  const listDevice = async (id: string) =>
    (
      await management<{ id: string }[]>({
        what: 'list refresh tokens',
        method: 'GET',
        url: '/device-credentials',
        params: { user_id: id, type: 'refresh_token', page: 0, per_page: PAGE, include_totals: false },
      })
    ).data

  const calls: ReturnType<typeof createTenantTokenCalls> = {
    async refreshTokens(id) {
      const tokens: { id: string; created_at?: string }[] = []
      let from: string | undefined
      try {
        for (let round = 0; round < ROUNDS; round += 1) {
          const { data } = await management<{ tokens?: typeof tokens; next?: string }>({
            what: 'list refresh tokens',
            method: 'GET',
            url: `${userPath(id)}/refresh-tokens`,
            params: { take: PAGE, ...(from ? { from } : {}) },
          })
          tokens.push(...(data.tokens ?? []))
          if (!data.next) break
          from = data.next
        }
      } catch (error) {
        if (notOnPlan(error)) return null
        throw error
      }
      return tokens
    },
    async deleteRefreshToken(tokenId) {
      // 404: gone already (revoked meanwhile, or a run before this one).
      return deleted('revoke refresh token', `/refresh-tokens/${encodeURIComponent(tokenId)}`)
    },
    deviceRefreshTokens: async (id) => (await listDevice(id)).map((credential) => credential.id),
    async revokeDeviceRefreshTokens(id) {
      let revoked = 0
      // Deleting shifts the pages: take the first page until it is empty.
      for (let round = 0; round < ROUNDS; round += 1) {
        const page = await listDevice(id)
        for (const credential of page) {
          const url = `/device-credentials/${encodeURIComponent(credential.id)}`
          await management({ what: 'revoke refresh token', method: 'DELETE', url })
          revoked += 1
        }
        if (page.length < PAGE) break
      }
      return revoked
    },
    async endSessions(id) {
      await deleted('end sessions', `${userPath(id)}/sessions`)
      if (await deleted('revoke refresh tokens', `${userPath(id)}/refresh-tokens`)) return
      await calls.revokeDeviceRefreshTokens(id)
    },
  }
  return calls
}
