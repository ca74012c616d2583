import { randomBytes, randomUUID } from 'node:crypto'
import express, { type Request, type Response, type Router } from 'express'
import { clientCredentials } from './client-auth'
import type { EmulatedKeycloakClient, KeycloakRealmState } from './keycloak-realm-state'
import { missingAtLogin, type UserProfileMode } from './keycloak-user-profile'
import type { AssertionKeyStore } from './keycloak-assertion-keys'
import {
  JWT_BEARER_GRANT,
  jwtAuthorizationGrant,
  jwtGrantAvailable,
} from './keycloak-jwt-authorization-grant'
import { keycloakUserTokens } from './keycloak-user-tokens'

/** The server's master-realm admin and the realm settings the grants read. */
export interface KeycloakOidcOptions {
  adminUser: string
  adminPassword: string
  adminTokenLifetimeSec: number
  /** The clock admin tokens are issued by (`iat`, hence `exp`). */
  now: () => number
  userProfile: UserProfileMode
  /** The Verify Profile required action is enabled (else the profile is not checked at login). */
  verifyProfile: boolean
  /** Custom attributes the user profile requires of users (role `user`). */
  requiredAttributes: string[]
  /** The JWT Authorization Grant providers' keys, loaded as Keycloak loads them. */
  assertionKeys: AssertionKeyStore
}

type Body = Record<string, string | undefined>
const oauthError = (res: Response, status: number, error: string, description: string) =>
  void res.status(status).json({ error, error_description: description })

/** The master realm's `admin-cli` password grant: an admin token for every realm's admin API. */
function masterToken(state: KeycloakRealmState, options: KeycloakOidcOptions, req: Request, res: Response) {
  const body = req.body as Body
  const { clientId } = clientCredentials(req)
  if (clientId !== 'admin-cli' || body.grant_type !== 'password')
    return oauthError(res, 400, 'unauthorized_client', 'Invalid client')
  if (body.username !== options.adminUser || body.password !== options.adminPassword)
    return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
  state.adminTokenIssued()
  const claims = { iss: state.issuerOf('master'), sub: 'admin', azp: 'admin-cli', typ: 'Bearer' }
  const token = state.key.sign(
    { ...claims, iat: Math.floor(options.now() / 1000) },
    options.adminTokenLifetimeSec,
  )
  res.json({
    access_token: token,
    expires_in: options.adminTokenLifetimeSec,
    refresh_expires_in: 1800,
    refresh_token: randomBytes(16).toString('hex'),
    token_type: 'Bearer',
    'not-before-policy': 0,
    session_state: randomUUID(),
    scope: 'profile email',
  })
}

/** `client_credentials`: the client's service account, with its `realm-management` roles in the token. */
function serviceAccountGrant(
  state: KeycloakRealmState,
  options: KeycloakOidcOptions,
  client: EmulatedKeycloakClient,
  res: Response,
) {
  if (!client.serviceAccountRoles)
    return oauthError(res, 401, 'unauthorized_client', 'Client not enabled to retrieve service account')
  state.adminTokenIssued()
  const token = state.key.sign(
    {
      iss: state.issuerOf(state.realm),
      sub: `service-account-${client.clientId}`,
      iat: Math.floor(options.now() / 1000),
      azp: client.clientId,
      typ: 'Bearer',
      resource_access: { 'realm-management': { roles: client.serviceAccountRoles } },
    },
    300,
  )
  res.json({
    access_token: token,
    expires_in: 300,
    refresh_expires_in: 0,
    token_type: 'Bearer',
    'not-before-policy': 0,
    scope: 'profile email',
  })
}

/**
 * `refresh_token` (TokenManager.refreshAccessToken): the session must be alive, the token not older than the
 * user's not-before (which the admin logout sets).
 */
function refreshGrant(state: KeycloakRealmState, client: EmulatedKeycloakClient, body: Body, res: Response) {
  const session = state.sessions.get(body.refresh_token ?? '')
  const user = session && state.users.get(session.userId)
  if (!session || !user) return oauthError(res, 400, 'invalid_grant', 'Session not active')
  if (session.issuedAt < user.notBefore) return oauthError(res, 400, 'invalid_grant', 'Stale token')
  state.sessions.delete(body.refresh_token ?? '')
  const { sid, offline, started } = session
  res.json(
    keycloakUserTokens(state, user, client.clientId, body.scope ?? 'openid', { sid, offline, started }),
  )
}

/**
 * `password`, the direct-grant flow: ValidateUsername (unknown: 401; disabled: 400), ValidatePassword (401),
 * then required actions, Verify Profile among them (400 "Account is not fully set up").
 */
function passwordGrant(
  state: KeycloakRealmState,
  options: KeycloakOidcOptions,
  client: EmulatedKeycloakClient,
  body: Body,
  res: Response,
) {
  if (client.directAccessGrants === false)
    return oauthError(res, 400, 'unauthorized_client', 'Client not allowed for direct access grants')
  const user = state.byUsername(body.username ?? '')
  if (!user) return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
  if (!user.enabled) return oauthError(res, 400, 'invalid_grant', 'Account disabled')
  if (user.password === undefined || user.password !== body.password)
    return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials')
  const unverified =
    options.verifyProfile && missingAtLogin(options.userProfile, user, options.requiredAttributes).length > 0
  if (user.requiredActions.length > 0 || unverified)
    return oauthError(res, 400, 'invalid_grant', 'Account is not fully set up')
  res.json(keycloakUserTokens(state, user, client.clientId, body.scope ?? ''))
}

/** The confidential client of the request's credentials (HTTP Basic or body), or undefined when they are wrong. */
function authenticatedClient(state: KeycloakRealmState, req: Request): EmulatedKeycloakClient | undefined {
  const { clientId, clientSecret } = clientCredentials(req)
  const client = state.clients.find((c) => c.clientId === clientId)
  return client && client.secret === clientSecret ? client : undefined
}

/**
 * `POST /revoke` (RFC 7009; TokenRevocationEndpoint): client authentication, `token` required (400
 * `invalid_request` "Token not provided"); a token it cannot read is 200 `invalid_token` "Invalid token"; one
 * issued to another client 400 "Unmatching clients"; a refresh token ends its session, an access token is put in
 * the revoked store (by its `jti`) until it expires. 200, empty.
 */
function revokeToken(state: KeycloakRealmState, req: Request, res: Response) {
  const client = authenticatedClient(state, req)
  if (!client)
    return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
  const token = (req.body as Body).token
  if (!token) return oauthError(res, 400, 'invalid_request', 'Token not provided')
  const session = state.sessions.get(token)
  if (session) {
    if (session.clientId !== client.clientId)
      return oauthError(res, 400, 'invalid_request', 'Unmatching clients')
    state.sessions.delete(token)
    return void res.status(200).end()
  }
  const claims = state.key.verify(token)
  const user = claims && state.users.get(String(claims.sub))
  if (!claims || !user || !user.enabled) return oauthError(res, 200, 'invalid_token', 'Invalid token')
  if (claims.azp !== client.clientId) return oauthError(res, 400, 'invalid_request', 'Unmatching clients')
  state.revokedTokens.add(String(claims.jti))
  res.status(200).end()
}

/**
 * The realm's OpenID Connect endpoints (`/realms/{realm}/protocol/openid-connect/…`): the token endpoint (the
 * master `admin-cli` grant; the realm's password, refresh-token and client-credentials grants), logout of a
 * refresh token's session, the certificates (JWKS) and the discovery document.
 */
export function createKeycloakOidcRouter(state: KeycloakRealmState, options: KeycloakOidcOptions): Router {
  const router = express.Router()
  router.post('/realms/:realm/protocol/openid-connect/token', (req: Request, res: Response) => {
    if (req.params.realm === 'master') return masterToken(state, options, req, res)
    const body = req.body as Body
    if (req.params.realm !== state.realm) return void res.status(404).json({ error: 'Realm does not exist' })
    const client = authenticatedClient(state, req)
    if (!client)
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
    if (body.grant_type === 'client_credentials') return serviceAccountGrant(state, options, client, res)
    if (body.grant_type === 'refresh_token') return refreshGrant(state, client, body, res)
    // With the feature off (or before 26.5) no grant type provider answers to it: "Unsupported grant_type".
    if (body.grant_type === JWT_BEARER_GRANT && jwtGrantAvailable(state))
      return void jwtAuthorizationGrant(state, options.assertionKeys, client, body, res, options.now).catch(
        (error: unknown) =>
          void res.status(500).json({ error: 'server_error', error_description: String(error) }),
      )
    if (body.grant_type !== 'password')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type')
    passwordGrant(state, options, client, body, res)
  })
  router.post('/realms/:realm/protocol/openid-connect/logout', (req: Request, res: Response) => {
    if (!authenticatedClient(state, req))
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials')
    const token = (req.body as Body).refresh_token
    if (!token) return oauthError(res, 400, 'invalid_request', 'No refresh token')
    if (!state.sessions.delete(token)) return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token')
    res.status(204).end()
  })
  router.post('/realms/:realm/protocol/openid-connect/revoke', (req: Request, res: Response) =>
    revokeToken(state, req, res),
  )
  router.get('/realms/:realm/protocol/openid-connect/certs', (_req, res) => void res.json(state.key.jwks()))
  router.get('/realms/:realm/.well-known/openid-configuration', (req, res) => {
    const issuer = state.issuerOf(String(req.params.realm))
    res.json({
      issuer,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
      revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
      grant_types_supported: [
        'authorization_code',
        'password',
        'refresh_token',
        'client_credentials',
        ...(jwtGrantAvailable(state) ? [JWT_BEARER_GRANT] : []),
      ],
    })
  })
  return router
}
