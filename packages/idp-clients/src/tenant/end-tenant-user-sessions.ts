import { endedAtMs, notFound, type EndUserSessionsInput, type EndUserSessionsResult } from '../session-ending'
import { lookUpLinkedTenantUser } from './find-linked-tenant-user'
import type { TenantManagementApi } from './tenant-management-api'

const UNDECIDED =
  'this plan lists refresh tokens through /device-credentials only, without issue times, and the user signed ' +
  'in after the event'

/**
 * `endUserSessions` for a tenant (see there). The password grant opens no session of the tenant's session
 * layer: what outlives the marketplace session is the refresh token (`offline_access`). The account linked to
 * `pfUserId` in `connection` is found as the exchange finds it (search as a hint, `GET /users/{id}` confirms);
 * then, where the plan lists refresh tokens per user, each one created at or before `endedAt` is deleted and the
 * later ones kept. Elsewhere `/device-credentials` says nothing of when a token was issued: the user's
 * `last_login` (every password grant sets it) does. Not after the event: every refresh token predates it and all
 * are revoked; after it: a newer one may be among them, so none is (`undecided`), and the later session's own
 * end revokes them.
 */
export async function endTenantUserSessions(
  api: TenantManagementApi,
  connection: string,
  input: EndUserSessionsInput,
): Promise<EndUserSessionsResult> {
  const endedAt = endedAtMs(input.endedAt)
  const { user, others } = await lookUpLinkedTenantUser(api, connection, input.pfUserId)
  if (!user) return notFound(others.map((other) => ({ id: other.user_id })))
  const result = { outcome: 'ended' as const, accountId: user.user_id, ended: 0, kept: 0, undecided: 0 }
  const tokens = await api.refreshTokens(user.user_id)
  if (tokens) {
    for (const token of tokens) {
      const created = token.created_at ? Date.parse(token.created_at) : Number.NaN
      // A token without a readable issue time is treated as issued before: it cannot be shown to be newer.
      if (created > endedAt) result.kept += 1
      else if (await api.deleteRefreshToken(token.id)) result.ended += 1
    }
    return result
  }
  const lastLogin = user.last_login ? Date.parse(user.last_login) : Number.NaN
  if (!(lastLogin > endedAt)) return { ...result, ended: await api.revokeDeviceRefreshTokens(user.user_id) }
  const undecided = (await api.deviceRefreshTokens(user.user_id)).length
  return undecided > 0 ? { ...result, undecided, reason: UNDECIDED } : result
}
