import type { IdentityProvider } from './identity-provider'
import type { EndUserSessionsInput, EndUserSessionsResult } from './session-ending'

/**
 * Ends, at the identity provider, what a marketplace session gave its user (issue 27, `session.ended`): the
 * account is found exactly as the exchange finds it (by `pfUserId`), then every session (Keycloak: online, and
 * offline ones of the client) or refresh token (Auth0) that started at or before `endedAt` is ended; later ones
 * are kept (a session bought in between). Idempotent: a second run ends nothing and resolves.
 * Resolves `unknown-user` / `linked-elsewhere` when there is nothing of this user's to end; an identity provider
 * that is down, slow or answering 5xx/429 (after the client's retries) rejects, so a queue retries the job.
 *
 * `client`: an `IdentityProvider` (`createIdentityProvider`), or a realm or tenant client.
 *
 * @example
 * const result = await endUserSessions(idp, { pfUserId: event.data.userId, endedAt: event.timestamp })
 */
export function endUserSessions(
  client: Pick<IdentityProvider, 'endUserSessions'>,
  input: EndUserSessionsInput,
): Promise<EndUserSessionsResult> {
  return client.endUserSessions(input)
}
