import express, { type Request, type Response, type Router } from 'express'
import { DEFAULT_GRANT_TYPES, type Auth0TenantState, type EmulatedAuth0Client } from './auth0-tenant-state'
import { tokenExchangeGrant, TOKEN_EXCHANGE } from './auth0-token-exchange-grant'
import { runPostLogin } from './auth0-post-login'
import { auth0UserTokens } from './auth0-user-tokens'
import { clientCredentials } from './client-auth'

const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm'

/** The Management API scopes a client's grant holds unless `scopes` says otherwise. */
const ALL_SCOPES = [
  'read:users',
  'read:clients',
  'read:connections',
  'create:users',
  'update:users',
  'read:roles',
  'create:role_members',
  'read:organizations',
  'read:authentication_methods',
  'read:sessions',
  'delete:sessions',
  'read:refresh_tokens',
  'delete:refresh_tokens',
  'read:device_credentials',
  'delete:device_credentials',
  'update:clients',
  'read:token_exchange_profiles',
  'create:token_exchange_profiles',
  'update:token_exchange_profiles',
  'delete:token_exchange_profiles',
]

type Body = Record<string, string | undefined>
const oauthError = (res: Response, status: number, error: string, description: string) =>
  void res.status(status).json({ error, error_description: description })

/** The application of the request's credentials (HTTP Basic or body), or undefined when they are wrong. */
function authenticatedClient(state: Auth0TenantState, req: Request): EmulatedAuth0Client | undefined {
  const { clientId, clientSecret } = clientCredentials(req)
  const client = state.clients.find((c) => c.clientId === clientId)
  return client && client.clientSecret === clientSecret ? client : undefined
}

/** `client_credentials` for the Management API: a token carrying the grant's scopes. */
function managementGrant(state: Auth0TenantState, client: EmulatedAuth0Client, body: Body, res: Response) {
  if (body.audience !== state.managementAudience)
    return oauthError(res, 403, 'access_denied', `Service not found: ${body.audience}`)
  state.managementTokenIssued()
  const scope = (client.scopes ?? ALL_SCOPES).join(' ')
  const token = state.key.sign(
    {
      iss: state.issuer,
      sub: `${client.clientId}@clients`,
      aud: state.managementAudience,
      gty: 'client-credentials',
      azp: client.clientId,
      scope,
    },
    86400,
  )
  res.json({ access_token: token, expires_in: 86400, token_type: 'Bearer', scope })
}

/** `refresh_token`: new tokens with the refresh token's scope and audience; the refresh token stays. */
async function refreshGrant(state: Auth0TenantState, client: EmulatedAuth0Client, body: Body, res: Response) {
  const session = state.refreshTokens.get(body.refresh_token ?? '')
  const user = session && state.users.get(session.userId)
  if (!session || !user) return oauthError(res, 403, 'invalid_grant', 'Unknown or invalid refresh token.')
  const scopes = session.scope.split(' ')
  const claims = await runPostLogin(state, user, {
    clientId: client.clientId,
    protocol: 'oauth2-refresh-token',
  })
  if (claims.kind === 'denied') return oauthError(res, 403, 'access_denied', claims.reason)
  res.json(
    auth0UserTokens(state, user, {
      clientId: client.clientId,
      scopes,
      audience: session.audience,
      refresh: false,
      claims,
    }),
  )
}

/** `password` against the tenant's default directory, `password-realm` against the connection named `realm`. */
async function passwordGrant(
  state: Auth0TenantState,
  client: EmulatedAuth0Client,
  body: Body,
  res: Response,
) {
  const connection = body.grant_type === PASSWORD_REALM ? body.realm : state.defaultDirectory
  if (!connection)
    return oauthError(
      res,
      500,
      'server_error',
      'Authorization server not configured with default connection.',
    )
  const user = [...state.users.values()].find(
    (u) => u.email === (body.username ?? '').toLowerCase() && u.connection === connection,
  )
  if (!user || !state.isDatabase(connection) || user.password !== body.password)
    return oauthError(res, 403, 'invalid_grant', 'Wrong email or password.')
  if (user.blocked) return oauthError(res, 401, 'unauthorized', 'user is blocked')
  // A successful login, the resource-owner grants included, updates the profile's last_login and logins_count.
  user.last_login = new Date().toISOString()
  user.logins_count = (user.logins_count ?? 0) + 1
  const scopes = (body.scope ?? '').split(' ').filter(Boolean)
  // A post-login Action's api.access.deny ends a resource-owner grant with 403 access_denied and its reason.
  const claims = await runPostLogin(state, user, { clientId: client.clientId, protocol: 'oauth2-password' })
  if (claims.kind === 'denied') return oauthError(res, 403, 'access_denied', claims.reason)
  res.json(
    auth0UserTokens(state, user, { clientId: client.clientId, scopes, audience: body.audience, claims }),
  )
}

/**
 * The Authentication API: `POST /oauth/token` (JSON or form; client credentials for the Management API,
 * `password`, `password-realm`, `refresh_token`), each grant allowed by the application's grant types, and Custom
 * Token Exchange (`tokenExchangeGrant`);
 * `POST /oauth/revoke`; the JWKS and the discovery document.
 */
export function createAuth0AuthenticationRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  router.post('/oauth/token', (req: Request, res: Response) => {
    const body = req.body as Body
    const client = authenticatedClient(state, req)
    if (!client) return oauthError(res, 401, 'access_denied', 'Unauthorized')
    // Custom Token Exchange is allowed by the application's `token_exchange`, not by its grant types.
    if (body.grant_type === TOKEN_EXCHANGE) return tokenExchangeGrant(state, client, req, res)
    const allowed = client.grantTypes ?? DEFAULT_GRANT_TYPES
    // password-realm is the password grant with a named connection: the same grant type setting allows it.
    const grant = body.grant_type === PASSWORD_REALM ? 'password' : (body.grant_type ?? '')
    if (!allowed.includes(grant))
      return oauthError(
        res,
        403,
        'unauthorized_client',
        `Grant type '${body.grant_type}' not allowed for the client.`,
      )
    if (body.grant_type === 'client_credentials') return managementGrant(state, client, body, res)
    if (body.grant_type === 'refresh_token') return refreshGrant(state, client, body, res)
    if (body.grant_type !== 'password' && body.grant_type !== PASSWORD_REALM)
      return oauthError(res, 403, 'unsupported_grant_type', 'Unsupported grant type')
    return passwordGrant(state, client, body, res)
  })
  router.post('/oauth/revoke', (req: Request, res: Response) => {
    if (!authenticatedClient(state, req)) return oauthError(res, 401, 'access_denied', 'Unauthorized')
    state.refreshTokens.delete((req.body as { token?: string }).token ?? '')
    res.status(200).end()
  })
  router.get('/.well-known/jwks.json', (_req, res) => void res.json(state.key.jwks()))
  // The tenant's OpenID discovery document (https://{domain}/.well-known/openid-configuration): addresses on the
  // tenant's domain, as the real one gives them (clients reach the emulator through their base URL).
  router.get('/.well-known/openid-configuration', (_req, res) => {
    const at = (path: string) => `${state.issuer}${path}`
    res.json({
      issuer: state.issuer,
      authorization_endpoint: at('authorize'),
      token_endpoint: at('oauth/token'),
      userinfo_endpoint: at('userinfo'),
      jwks_uri: at('.well-known/jwks.json'),
      revocation_endpoint: at('oauth/revoke'),
      grant_types_supported: [
        'authorization_code',
        'implicit',
        'refresh_token',
        'client_credentials',
        'password',
        TOKEN_EXCHANGE,
      ],
      id_token_signing_alg_values_supported: ['HS256', 'RS256', 'PS256'],
    })
  })
  return router
}
