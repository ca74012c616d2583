import { randomBytes } from 'node:crypto'
import { credentialId, type Auth0TenantState, type EmulatedAuth0User } from './auth0-tenant-state'

/**
 * The tokens of a signed-in user, as the password, password-realm, refresh-token and token-exchange grants answer:
 * an access token that is a JWT with the post-login pipeline's custom claims (`claims`, from `runPostLogin`) when
 * an audience was asked for (opaque otherwise), an ID token with `openid`, a refresh token with `offline_access`
 * (unless `refresh` is false).
 */
export function auth0UserTokens(
  state: Auth0TenantState,
  user: EmulatedAuth0User,
  {
    clientId,
    scopes,
    audience,
    refresh = true,
    claims,
  }: {
    clientId: string
    scopes: string[]
    audience?: string
    refresh?: boolean
    claims: { access: Record<string, unknown>; id: Record<string, unknown> }
  },
) {
  const { key, issuer } = state
  const customClaims = claims.access
  // Without an audience the tenant issues an opaque token for /userinfo: custom claims need a JWT.
  const accessToken = audience
    ? key.sign(
        {
          iss: issuer,
          sub: user.user_id,
          aud: [audience, `${issuer}userinfo`],
          azp: clientId,
          scope: scopes.join(' '),
          email: user.email,
          ...customClaims,
        },
        86400,
      )
    : randomBytes(24).toString('base64url')
  let refreshToken: string | undefined
  if (refresh && scopes.includes('offline_access')) {
    refreshToken = randomBytes(24).toString('base64url')
    state.refreshTokens.set(refreshToken, {
      id: credentialId('rt'),
      userId: user.user_id,
      clientId,
      scope: scopes.join(' '),
      ...(audience ? { audience } : {}),
      created_at: new Date().toISOString(),
    })
  }
  const idToken = () =>
    key.sign(
      {
        iss: issuer,
        aud: clientId,
        sub: user.user_id,
        email: user.email,
        nickname: user.email.split('@')[0],
        ...claims.id,
      },
      36000,
    )
  return {
    access_token: accessToken,
    ...(scopes.includes('openid') ? { id_token: idToken() } : {}),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: scopes.join(' '),
    expires_in: 86400,
    token_type: 'Bearer',
  }
}
