import type { RealmClient } from './realm/create-realm-client'
import type { EndUserSessionsInput, EndUserSessionsResult } from './session-ending'
import type { TenantClient } from './tenant/create-tenant-client'

/**
 * Ends, at the identity provider, what a marketplace session gave its user (issue 27, `session.ended`): the
 * account is found exactly as the exchange finds it (by `pfUserId`), then every session (Keycloak: online, and
 * offline ones of the client) or refresh token (Auth0) that started at or before `endedAt` is ended; later ones
 * are kept (a session bought in between). Idempotent: a second run ends nothing and resolves.
 * Resolves `unknown-user` / `linked-elsewhere` when there is nothing of this user's to end; an identity provider
 * that is down, slow or answering 5xx/429 (after the client's retries) rejects, so a queue retries the job.
 *
 * @example
 * const result = await endUserSessions(realm, { pfUserId: event.data.userId, endedAt: event.timestamp })
 */
export function endUserSessions(
  client: RealmClient | TenantClient,
  input: EndUserSessionsInput,
): Promise<EndUserSessionsResult> {
  return client.endUserSessions(input)
}
