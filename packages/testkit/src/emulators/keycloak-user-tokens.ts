import { randomBytes, randomUUID } from 'node:crypto'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'

/** The access token's claims: the user's effective roles and its mapped attributes (oidc-usermodel-attribute-mapper). */
function accessClaims(
  state: KeycloakRealmState,
  user: EmulatedKeycloakUser,
  clientId: string,
  sid: string | undefined,
) {
  const first = (name: string) => user.attributes[name]?.[0]
  // Tokens carry the effective roles: default-roles-<realm> expands to offline_access, uma_authorization
  // and the account client's roles.
  const effective = state.effectiveRoles(user)
  const clientRoles: Record<string, { roles: string[] }> = {}
  for (const role of effective.filter((r) => r.client))
    (clientRoles[role.client!] ??= { roles: [] }).roles.push(role.name)
  return {
    iss: state.issuerOf(state.realm),
    sub: user.id,
    typ: 'Bearer',
    azp: clientId,
    preferred_username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
    realm_access: { roles: effective.filter((r) => !r.client).map((r) => r.name) },
    ...(Object.keys(clientRoles).length > 0 ? { resource_access: clientRoles } : {}),
    scope: 'openid email profile',
    // Mapped user attributes: absent when the attribute is.
    ...(first('pfUserId') ? { pfUserId: first('pfUserId') } : {}),
    ...(first('orgId') ? { orgId: first('orgId') } : {}),
    ...(first('pfApplicationId') ? { pfApplicationId: first('pfApplicationId') } : {}),
    // session_state left the tokens in version 25, replaced by sid with the same value.
    ...(sid === undefined ? {} : state.version >= 25 ? { sid } : { session_state: sid }),
  }
}

/**
 * The tokens of a signed-in user, as the password and refresh-token grants answer, and the session its refresh
 * token names (`offline` with `offline_access`: the admin logout leaves it, stale). `transient` (the JWT
 * Authorization Grant: UserSessionModel.SessionPersistenceState.TRANSIENT, `useRefreshToken()` false): no refresh
 * token and no session kept.
 */
export function keycloakUserTokens(
  state: KeycloakRealmState,
  user: EmulatedKeycloakUser,
  clientId: string,
  scope: string,
  {
    sid = randomUUID() as string,
    offline = scope.split(' ').includes('offline_access'),
    // UserSessionModel.getStarted: epoch seconds.
    started = Math.floor(Date.now() / 1000) * 1000,
    transient = false,
  } = {},
) {
  const refreshToken = randomBytes(24).toString('base64url')
  if (!transient)
    state.sessions.set(refreshToken, {
      userId: user.id,
      sid,
      clientId,
      issuedAt: Math.floor(Date.now() / 1000),
      started,
      lastAccess: Date.now(),
      offline,
    })
  const idToken = () =>
    state.key.sign(
      {
        iss: state.issuerOf(state.realm),
        sub: user.id,
        aud: clientId,
        email: user.email,
        preferred_username: user.username,
        sid,
      },
      300,
    )
  return {
    access_token: state.key.sign(
      // A transient session has no id to name (Keycloak 25+ leaves `sid` out of sessionless tokens).
      { ...accessClaims(state, user, clientId, transient ? undefined : sid), jti: randomUUID() },
      300,
    ),
    expires_in: 300,
    ...(transient ? { refresh_expires_in: 0 } : { refresh_expires_in: 1800, refresh_token: refreshToken }),
    token_type: 'Bearer',
    ...(scope.split(' ').includes('openid') ? { id_token: idToken() } : {}),
    'not-before-policy': 0,
    ...(transient ? {} : { session_state: sid }),
    scope: 'openid email profile',
  }
}
