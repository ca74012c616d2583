import { verify as verifySignature } from 'node:crypto'
import type { Response } from 'express'
import type { AssertionKeyStore } from './keycloak-assertion-keys'
import type { EmulatedKeycloakClient, KeycloakRealmState } from './keycloak-realm-state'
import { versionAtLeast } from './keycloak-search-query'
import { keycloakUserTokens } from './keycloak-user-tokens'

/** The grant type of RFC 7523 section 2.1 (OAuth2Constants.JWT_AUTHORIZATION_GRANT). */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
/** The server feature (Profile.Feature.JWT_AUTHORIZATION_GRANT), as `--features=` names it. */
export const JWT_AUTHORIZATION_GRANT_FEATURE = 'jwt-authorization-grant'
/** The identity provider type (JWTAuthorizationGrantIdentityProviderFactory.PROVIDER_ID). */
export const JWT_AUTHORIZATION_GRANT_PROVIDER = 'jwt-authorization-grant'

/** Whether the server offers the grant: the feature on, on a server that has it (26.5 and later). */
export const jwtGrantAvailable = (state: KeycloakRealmState) =>
  state.features.has(JWT_AUTHORIZATION_GRANT_FEATURE) && versionAtLeast(state.serverVersion, [26, 5, 0])

/** A refusal of the grant: every failure is 400 `invalid_grant` with the exception's message. */
class Refused extends Error {}

const RS_ALGORITHMS: Record<string, string> = { RS256: 'sha256', RS384: 'sha384', RS512: 'sha512' }

interface Assertion {
  header: { alg?: string; kid?: string; typ?: string }
  claims: {
    iss?: string
    sub?: string
    aud?: string | string[]
    exp?: number
    iat?: number
    nbf?: number
    jti?: string
  }
  signingInput: string
  signature: Buffer
}

function parseAssertion(assertion: string | undefined): Assertion {
  if (assertion === undefined) throw new Refused('Missing parameter:assertion')
  const parts = assertion.split('.')
  try {
    if (parts.length !== 3) throw new Error('not three parts')
    const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as object
    return {
      header: json(parts[0]!) as Assertion['header'],
      claims: json(parts[1]!) as Assertion['claims'],
      signingInput: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2]!, 'base64url'),
    }
  } catch {
    throw new Refused('The provided assertion is not a valid JWT')
  }
}

/**
 * AbstractBaseJWTValidator.validateTokenActive: `exp` required; not expired and past `nbf` (JsonWebToken.isActive,
 * with the provider's clock skew, 0 by default); without `iat` a lifetime past the maximum is refused; with it,
 * an `iat` in the future is refused, the lifetime is capped at the maximum, and an `iat` older than the maximum
 * is refused. The `jti` is required and put in the single-use store for that lifetime HERE, before the signature
 * or the audience are checked: a refused assertion still spends its `jti`.
 */
function validateTokenActive(
  state: KeycloakRealmState,
  claims: Assertion['claims'],
  { skew, maxExp, reuse, now }: { skew: number; maxExp: number; reuse: boolean; now: number },
) {
  if (typeof claims.exp !== 'number') throw new Refused('Token exp claim is required')
  const expired = claims.exp !== 0 && now > claims.exp + skew
  const notYet = typeof claims.nbf === 'number' && claims.nbf !== 0 && now < claims.nbf - skew
  if (expired || notYet) throw new Refused('Token is not active')
  let lifespan = claims.exp - now
  if (typeof claims.iat !== 'number') {
    if (lifespan > maxExp)
      throw new Refused('Token expiration is too far in the future and iat claim not present in token')
  } else {
    if (claims.iat - skew > now) throw new Refused('Token was issued in the future')
    lifespan = Math.min(lifespan, maxExp)
    if (lifespan <= 0) throw new Refused('Token is not active')
    if (now > claims.iat + maxExp) throw new Refused('Token was issued too far in the past to be used now')
  }
  if (reuse) return
  if (typeof claims.jti !== 'string') throw new Refused('Token jti claim is required')
  for (const [key, end] of state.singleUse) if (end < now) state.singleUse.delete(key)
  const key = `defaultjwtauthorizationgrantvalidator:${claims.jti}`
  if (state.singleUse.has(key)) throw new Refused('Token reuse detected')
  state.singleUse.set(key, now + lifespan)
}

/** AbstractBaseJWTValidator.validateSignatureAlgorithm: asymmetric only, `none` never, the provider's if set. */
function validateSignatureAlgorithm(alg: string | undefined, expected: string | undefined) {
  if (!alg || alg.toLowerCase() === 'none' || !/^(RS|PS|ES)\d{3}$|^EdDSA$/.test(alg))
    throw new Refused('Invalid signature algorithm')
  if (expected && expected !== alg) throw new Refused('Invalid signature algorithm')
}

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, Keycloak's JWT Authorization Grant (RFC 7523;
 * org.keycloak.protocol.oidc.grants.jwtauthorization.JWTAuthorizationGrantType, DefaultJWTAuthorizationGrantValidator,
 * AbstractBaseJWTValidator, JWTAuthorizationGrantIdentityProvider). In the vendor's order, each failure a 400
 * `invalid_grant` whose description is the exception's message:
 * the assertion present and a JWT; a confidential client with the capability on
 * (`oauth2.jwt.authorization.grant.enabled`); `iss` and `sub` present; the provider of type
 * `jwt-authorization-grant` whose `issuer` is the assertion's `iss`; the provider enabled (26.5.3 on: before it,
 * a disabled provider was accepted, CVE-2026-1486); the provider among the client's allowed ones
 * (`oauth2.jwt.authorization.grant.idp`, `##`-separated); `validateTokenActive` (exp, iat, jti consumed);
 * the signature algorithm; the signature against the provider's JWKS (`createAssertionKeyStore`); the user
 * linked to the provider with the assertion's `sub` as its federated `userId`; the user enabled (26.5.3 on,
 * CVE-2026-1609) and without required actions; the audience: one value, the realm's issuer or its token
 * endpoint (getAllowedAudienceForJWTGrant). The answer has no refresh token (`useRefreshToken()` is false) and
 * the session is transient: nothing to log out or list.
 */
export async function jwtAuthorizationGrant(
  state: KeycloakRealmState,
  keys: AssertionKeyStore,
  client: EmulatedKeycloakClient,
  body: Record<string, string | undefined>,
  res: Response,
  now: () => number,
) {
  const fixed = versionAtLeast(state.serverVersion, [26, 5, 3])
  try {
    const { header, claims, signingInput, signature } = parseAssertion(body.assertion)
    if (client.publicClient) throw new Refused('Public client not allowed to use authorization grant')
    if (client.attributes?.['oauth2.jwt.authorization.grant.enabled'] !== 'true')
      throw new Refused('JWT Authorization Grant is not supported for the requested client')
    if (claims.iss == null) throw new Refused('Missing claim: iss')
    if (claims.sub == null) throw new Refused('Missing claim: sub')
    const provider = [...state.identityProviders.values()].find(
      (p) => p.providerId === JWT_AUTHORIZATION_GRANT_PROVIDER && p.config.issuer === claims.iss,
    )
    if (!provider) throw new Refused('No Identity Provider for provided issuer')
    if (fixed && !provider.enabled) throw new Refused('Identity Provider is not enabled')
    const allowed = (client.attributes['oauth2.jwt.authorization.grant.idp'] ?? '').split('##')
    if (!allowed.includes(provider.alias))
      throw new Refused('Identity Provider is not allowed for the client')
    const config = provider.config
    validateTokenActive(state, claims, {
      skew: Number.parseInt(config.jwtAuthorizationGrantAllowedClockSkew ?? '', 10) || 0,
      maxExp: Number.parseInt(config.jwtAuthorizationGrantMaxAllowedAssertionExpiration ?? '300', 10),
      reuse: config.jwtAuthorizationGrantAssertionReuseAllowed === 'true',
      now: Math.floor(now() / 1000),
    })
    validateSignatureAlgorithm(header.alg, config.jwtAuthorizationGrantAssertionSignatureAlg || undefined)
    const key = await keys.key(provider.alias, config.jwksUrl ?? '', header.kid).catch(() => undefined)
    const digest = RS_ALGORITHMS[header.alg ?? '']
    const valid =
      key !== undefined &&
      digest !== undefined &&
      verifySignature(digest, Buffer.from(signingInput), key, signature)
    // IdentityBrokerException("Invalid signature") from validateAuthorizationGrantAssertion.
    if (!valid) throw new Refused('Invalid signature')
    const user = [...state.users.values()].find((u) =>
      u.federatedIdentities.some((l) => l.identityProvider === provider.alias && l.userId === claims.sub),
    )
    if (!user) throw new Refused('User not found')
    if (fixed && !user.enabled) throw new Refused('User is not enabled')
    if (fixed && user.requiredActions.length > 0) throw new Refused('Account is not fully set up')
    const issuer = state.issuerOf(state.realm)
    const audiences = Array.isArray(claims.aud) ? claims.aud : claims.aud === undefined ? [] : [claims.aud]
    if (!audiences.some((a) => a === issuer || a === `${issuer}/protocol/openid-connect/token`))
      throw new Refused('Invalid token audience')
    if (audiences.length > 1) throw new Refused('Multiple audiences not allowed')
    res.json(keycloakUserTokens(state, user, client.clientId, body.scope ?? '', { transient: true }))
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    res.status(400).json({ error: 'invalid_grant', error_description: error.message })
  }
}
