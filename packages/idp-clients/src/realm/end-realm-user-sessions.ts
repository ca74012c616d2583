import { IdpRejectedError } from '../errors'
import { endedAtMs, notFound, type EndUserSessionsInput, type EndUserSessionsResult } from '../session-ending'
import { lookUpLinkedRealmUser } from './find-linked-realm-user'
import type { RealmAdminHttp } from './realm-admin-api'

/** A `UserSessionRepresentation`: `start` is epoch milliseconds (the session's start, whole seconds). */
interface KeycloakSession {
  id: string
  start: number
}

type Tally = { ended: number; kept: number; undecided: number; reason?: string }

const gone = (error: unknown) => error instanceof IdpRejectedError && error.statusCode === 404

/** The calls of one user's session ending, on the realm's admin API. */
function sessionCalls(api: RealmAdminHttp, adminPath: string, clientId: string, id: string) {
  const userPath = `${adminPath}/users/${encodeURIComponent(id)}`
  const list = async (what: string, url: string) =>
    (await api.call<KeycloakSession[]>(what, { method: 'GET', url })).data
  return {
    online: () => list('user sessions', `${userPath}/sessions`),
    offline: (clientUuid: string) =>
      list('offline sessions', `${userPath}/offline-sessions/${encodeURIComponent(clientUuid)}`),
    /** `DELETE /sessions/{id}`; false when the server has no such session (404). */
    async remove(sessionId: string, offline: boolean): Promise<boolean> {
      try {
        await api.call('delete session', {
          method: 'DELETE',
          url: `${adminPath}/sessions/${encodeURIComponent(sessionId)}`,
          params: offline ? { isOffline: 'true' } : {},
        })
        return true
      } catch (error) {
        if (gone(error)) return false
        throw error
      }
    },
    /** `DELETE /users/{id}/consents/{clientId}`: the consent and every offline token of the client. */
    async revokeOfflineTokens(): Promise<void> {
      const url = `${userPath}/consents/${encodeURIComponent(clientId)}`
      await api.call('revoke offline tokens', { method: 'DELETE', url }).catch((error: unknown) => {
        if (!gone(error)) throw error // 404 "Consent nor offline token not found": nothing left
      })
    },
  }
}

/**
 * The id (uuid) of the client, which the offline sessions are listed by; none: the client does not exist.
 * `forbidden`: the admin identity may not list clients (a service account without `view-clients` or
 * `query-clients`), so the offline sessions cannot be looked at.
 */
async function clientUuid(
  api: RealmAdminHttp,
  adminPath: string,
  clientId: string,
): Promise<string | undefined | 'forbidden'> {
  try {
    const { data } = await api.call<{ id: string; clientId: string }[]>('find client', {
      method: 'GET',
      url: `${adminPath}/clients`,
      params: { clientId },
    })
    return data.find((client) => client.clientId === clientId)?.id
  } catch (error) {
    if (error instanceof IdpRejectedError && error.statusCode === 403) return 'forbidden'
    throw error
  }
}

const NO_CLIENT_VIEW =
  'offline sessions were not looked at: give the service account the realm-management role view-clients ' +
  '(or query-clients)'

/**
 * The offline sessions of the client that started at or before `endedAt`: `DELETE /sessions/{id}?isOffline=true`
 * (RealmAdminResource.deleteSession; keycloak/keycloak#28101, backported to 24 by #28129, first released in
 * 24.0.2). 24.0.0 and 24.0.1 ignore `isOffline` and look the id up among online sessions only: 404 while the
 * offline session is still listed. There the only call is revoking the client's offline tokens as a whole
 * (`DELETE /users/{id}/consents/{clientId}`, UserResource.revokeConsent): done when none of them started
 * after the event; otherwise they are kept (`undecided`) and end with the later session's own end.
 */
async function endOfflineSessions(
  calls: ReturnType<typeof sessionCalls>,
  uuid: string,
  endedAt: number,
  tally: Tally,
): Promise<void> {
  const listed = await calls.offline(uuid)
  const due = listed.filter((session) => session.start <= endedAt)
  tally.kept += listed.length - due.length
  let refused = false
  for (const session of due)
    if (await calls.remove(session.id, true)) tally.ended += 1
    else refused = true
  if (!refused) return
  const now = await calls.offline(uuid)
  const left = now.filter((session) => session.start <= endedAt)
  if (left.length === 0) return // ended meanwhile (expired, or a concurrent run)
  if (left.length === now.length) {
    await calls.revokeOfflineTokens()
    tally.ended += left.length
    return
  }
  tally.undecided += left.length
  tally.reason =
    'this Keycloak (before 24.0.2) cannot end one offline session, and the client has offline sessions ' +
    'started after the event'
}

/**
 * `endUserSessions` for a realm (see there): the account linked to `pfUserId` (`lookUpLinkedRealmUser`: the
 * quoted `q=pfUserId:"<id>"` search, else the exchange's username; compared exactly, as the exchange finds it); its online sessions (`GET /users/{id}/sessions`), then the client's
 * offline sessions (`GET /users/{id}/offline-sessions/{clientUuid}`), each deleted when its `start` is not after
 * `endedAt`. Ending a session ends its refresh tokens. `start` has whole seconds: a session started within the
 * event's second counts as started before it.
 */
export async function endRealmUserSessions(
  api: RealmAdminHttp,
  { adminPath, clientId }: { adminPath: string; clientId: string },
  input: EndUserSessionsInput,
): Promise<EndUserSessionsResult> {
  const endedAt = endedAtMs(input.endedAt)
  const { user, others } = await lookUpLinkedRealmUser(api, input.pfUserId)
  if (!user) return notFound(others)
  const calls = sessionCalls(api, adminPath, clientId, user.id)
  const tally: Tally = { ended: 0, kept: 0, undecided: 0 }
  for (const session of await calls.online()) {
    if (session.start > endedAt) tally.kept += 1
    else if (await calls.remove(session.id, false)) tally.ended += 1
  }
  // The exchange's own grants open no offline session: without the role, the online ones are still ended.
  const uuid = await clientUuid(api, adminPath, clientId)
  if (uuid === 'forbidden') tally.reason = NO_CLIENT_VIEW
  else if (uuid) await endOfflineSessions(calls, uuid, endedAt, tally)
  return { outcome: 'ended', accountId: user.id, ...tally }
}
