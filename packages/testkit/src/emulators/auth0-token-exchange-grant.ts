import type { Request, Response } from 'express'
import { runExchangeAction, type ExchangeEvent } from './auth0-actions'
import { runPostLogin } from './auth0-post-login'
import type { Auth0TenantState, EmulatedAuth0Client } from './auth0-tenant-state'
import { auth0UserTokens } from './auth0-user-tokens'

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
/** The parameters of the grant itself; the others reach the Action as `event.request.body`. */
const OWN = [
  'grant_type',
  'client_id',
  'client_secret',
  'subject_token',
  'subject_token_type',
  'audience',
  'scope',
]

type Body = Record<string, string | undefined>
const oauthError = (res: Response, status: number, error: string, description: string) =>
  void res.status(status).json({ error, error_description: description })

/**
 * The address Suspicious IP Throttling counts: `auth0-forwarded-for` when the application trusts it ("Set this if
 * you want Suspicious IP Throttling protection to work in server-side scenarios", custom-token-exchange/get-token.mdx;
 * honoured with "Trust Token Endpoint IP Header" on), else the caller's.
 */
function addressOf(client: EmulatedAuth0Client, req: Request): string {
  const forwarded = req.get('auth0-forwarded-for')
  return client.trustTokenEndpointIpHeader && forwarded ? forwarded : (req.socket.remoteAddress ?? '')
}

/** (unconfirmed) how `api.access.deny(code, reason)` is answered: RFC 6749's statuses for its codes, else 403. */
const denialStatus = (code: string) =>
  code === 'invalid_request' ? 400 : code === 'server_error' ? 500 : 403

/**
 * Custom Token Exchange (`grant_type=urn:ietf:params:oauth:grant-type:token-exchange`; api/authentication/
 * custom-token-exchange/get-token.mdx, authenticate/custom-token-exchange*.mdx):
 * 1. an address over Suspicious IP Throttling's threshold gets 429 `too_many_attempts` (cte-attack-protection.mdx);
 * 2. the application must be first-party, OIDC-conformant ("Third-party and non-OIDC conformant clients" are not
 *    supported) and have `token_exchange.allow_any_profile_of_type` with `custom_authentication`;
 * 3. `subject_token_type` selects the profile, whose Action runs with the `event` of
 *    custom-token-exchange-event-object.mdx; a rejected subject token is 400 `invalid_request` and one failure
 *    for the address, a denial `{error: code, error_description: reason}`;
 * 4. the user the Action set (an existing one, not blocked, in a connection enabled for the application) signs
 *    in: its `app_metadata` takes what the Action set, then the post-login pipeline runs (`runPostLogin`), so the
 *    first tokens carry every claim it sets, with `issued_token_type`.
 * The wording of the refusals in steps 2-4 is unconfirmed (Auth0 documents their cases, not their bodies).
 */
export async function tokenExchangeGrant(
  state: Auth0TenantState,
  client: EmulatedAuth0Client,
  req: Request,
  res: Response,
): Promise<void> {
  const body = req.body as Body
  const ip = addressOf(client, req)
  if (state.ipThrottle.blocked(ip))
    return oauthError(
      res,
      429,
      'too_many_attempts',
      'We have detected suspicious login behavior and further attempts will be blocked. Please contact the administrator.',
    )
  if (!body.subject_token || !body.subject_token_type)
    return oauthError(res, 400, 'invalid_request', 'subject_token and subject_token_type are required')
  const allowed = client.tokenExchange?.allow_any_profile_of_type ?? []
  if (
    client.firstParty === false ||
    client.oidcConformant === false ||
    !allowed.includes('custom_authentication')
  )
    return oauthError(
      res,
      403,
      'unauthorized_client',
      `Grant type '${TOKEN_EXCHANGE}' not allowed for the client.`,
    )
  const profile = [...state.tokenExchangeProfiles.values()].find(
    (p) => p.subject_token_type === body.subject_token_type,
  )
  const action = profile && state.actions.get(profile.action_id)
  if (!action) return oauthError(res, 400, 'invalid_request', 'Unsupported subject_token_type')

  const scopes = (body.scope ?? '').split(' ').filter(Boolean)
  const event: ExchangeEvent = {
    secrets: { ...action.secrets },
    client: { client_id: client.clientId, name: client.clientId, metadata: {} },
    request: {
      ip,
      method: 'POST',
      body: Object.fromEntries(Object.entries(body).filter(([key]) => !OWN.includes(key))),
      geoip: {},
    },
    resource_server: { identifier: body.audience ?? '' },
    tenant: { id: state.domain.split('.')[0] ?? state.domain },
    transaction: {
      subject_token: body.subject_token,
      subject_token_type: body.subject_token_type,
      requested_scopes: scopes,
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    },
  }
  state.exchangeRuns.count += 1
  const outcome = await runExchangeAction(action, event, state.exchangeCache)
  switch (outcome.kind) {
    case 'rejected':
      state.ipThrottle.fail(ip)
      return oauthError(res, 400, 'invalid_request', outcome.reason)
    case 'denied':
      return oauthError(res, denialStatus(outcome.code), outcome.code, outcome.reason)
    case 'failed':
      return oauthError(res, 500, 'server_error', `Action execution failed: ${outcome.message}`)
    case 'no-user':
      return oauthError(res, 400, 'invalid_request', 'The Action set no user for the transaction')
    case 'user':
      break
  }
  const user = state.users.get(outcome.userId)
  if (!user) return oauthError(res, 400, 'invalid_request', 'The user set by the Action does not exist')
  if (user.blocked) return oauthError(res, 401, 'unauthorized', 'user is blocked')
  if (!state.enabledFor(user.connection, client.clientId))
    return oauthError(res, 403, 'unauthorized_client', 'The connection is not enabled for the client')
  for (const [key, value] of Object.entries(outcome.appMetadata))
    if (value === null) delete user.app_metadata[key]
    else user.app_metadata[key] = value
  if (Object.keys(outcome.appMetadata).length > 0) state.indexForSearch(user)
  user.last_login = new Date().toISOString()
  user.logins_count = (user.logins_count ?? 0) + 1
  // "If the Action successfully completes and sets a user for the transaction, post-login Actions and the rest of
  // the Auth0 pipeline are then executed for that logged-in user" (explore-triggers/custom-token-exchange.mdx).
  const claims = await runPostLogin(state, user, {
    clientId: client.clientId,
    protocol: 'oauth2-token-exchange',
  })
  if (claims.kind === 'denied') return oauthError(res, 403, 'access_denied', claims.reason)
  res.json({
    ...auth0UserTokens(state, user, { clientId: client.clientId, scopes, audience: body.audience, claims }),
    issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  })
}
