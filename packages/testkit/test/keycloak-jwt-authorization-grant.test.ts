import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import jwt from 'jsonwebtoken'
import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '../src/emulators'

// The emulator's JWT Authorization Grant (RFC 7523) refuses as Keycloak 26.5.3+ refuses: each case is one rung of
// JWTAuthorizationGrantType's ladder (the source is cited in keycloak-jwt-authorization-grant.ts). One emulator
// and one JWKS server for the file.
const ISSUER = 'https://exchange.example.com'
const ALIAS = 'pf-exchange'
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const KID = 'k1'
const cleanup = createCleanup(afterAll)
let keycloak: KeycloakEmulator
let jwksServer: Server

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )

beforeAll(async () => {
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' }],
      }),
    )
  })
  const jwksUrl = `${await listen(jwksServer)}/.well-known/jwks.json`
  cleanup.add(jwksServer, (s) => new Promise<void>((resolve) => s.close(() => resolve())))
  keycloak = cleanup.add(
    await startKeycloakEmulator({
      serverVersion: '26.5.3',
      features: ['jwt-authorization-grant'],
      clients: [
        {
          clientId: 'pf-exchange',
          secret: 's',
          attributes: {
            'oauth2.jwt.authorization.grant.enabled': 'true',
            'oauth2.jwt.authorization.grant.idp': ALIAS,
          },
        },
      ],
      identityProviders: [
        {
          alias: ALIAS,
          providerId: 'jwt-authorization-grant',
          enabled: true,
          config: { issuer: ISSUER, jwksUrl },
        },
      ],
    }),
    (k) => k.stop(),
  )
  const linked = (userId: string, extra = {}) => ({
    username: `pf-${userId}`,
    federatedIdentities: [{ identityProvider: ALIAS, userId, userName: userId }],
    ...extra,
  })
  keycloak.seedUser(linked('u1'))
  keycloak.seedUser(linked('off', { enabled: false }))
  keycloak.seedUser({ username: 'pf-nolink' })
})

const now = () => Math.floor(Date.now() / 1000)
/** An assertion signed with the published key; a claim given as undefined is left out (`iat` included). */
const assertion = (claims: Record<string, unknown> = {}) => {
  const all: Record<string, unknown> = {
    iss: ISSUER,
    sub: 'u1',
    aud: keycloak.issuer,
    iat: now() - 1,
    exp: now() + 60,
    jti: randomUUID(),
    ...claims,
  }
  const payload = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined))
  return jwt.sign(payload, privateKey, { algorithm: 'RS256', keyid: KID, noTimestamp: !('iat' in payload) })
}
async function grant(assertionJwt: string) {
  const res = await fetch(`${keycloak.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: assertionJwt,
      client_id: 'pf-exchange',
      client_secret: 's',
    }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
const refused = (description: string) => ({
  status: 400,
  body: { error: 'invalid_grant', error_description: description },
})

describe('Keycloak emulator: the JWT Authorization Grant', () => {
  it('issues an access token without a refresh token to the linked user, and loads the JWKS once', async () => {
    const { status, body } = await grant(assertion())
    expect(status).toBe(200)
    expect(body.access_token).toEqual(expect.any(String))
    expect(body).not.toHaveProperty('refresh_token')
    expect(keycloak.sessionsOf([...keycloak.users.values()][0]!.id)).toHaveLength(0)
    await grant(assertion())
    expect(keycloak.jwksFetches()).toHaveLength(1)
  })

  // The claims are made when each test runs: a table evaluated at load would age while earlier tests run.
  it.each([
    ['an expired assertion', () => ({ exp: now() - 10, iat: now() - 100 }), 'Token is not active'],
    [
      'an iat in the future (no clock skew by default)',
      () => ({ iat: now() + 30 }),
      'Token was issued in the future',
    ],
    [
      'an exp past the maximum without iat',
      () => ({ iat: undefined, exp: now() + 3600 }),
      'Token expiration is too far in the future and iat claim not present in token',
    ],
    [
      'a wrong audience',
      () => ({ aud: 'https://elsewhere.example.com/realms/pf' }),
      'Invalid token audience',
    ],
    ['two audiences', () => ({ aud: [ISSUER, 'x'] }), 'Invalid token audience'],
    [
      'an unknown issuer',
      () => ({ iss: 'https://other.example.com' }),
      'No Identity Provider for provided issuer',
    ],
    ['an unlinked user', () => ({ sub: 'nolink' }), 'User not found'],
    ['a disabled user (26.5.3, CVE-2026-1609)', () => ({ sub: 'off' }), 'User is not enabled'],
  ])('refuses %s', async (_name, claims, description) => {
    expect(await grant(assertion(claims()))).toEqual(refused(description))
  })

  it('refuses a reused jti, spent even by a refused first use', async () => {
    const jti = randomUUID()
    expect(await grant(assertion({ jti, aud: 'https://wrong.example.com' }))).toEqual(
      refused('Invalid token audience'),
    )
    expect(await grant(assertion({ jti }))).toEqual(refused('Token reuse detected'))
  })

  it('refuses a forged signature', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const forged = jwt.sign(
      { iss: ISSUER, sub: 'u1', aud: keycloak.issuer, iat: now(), exp: now() + 60, jti: randomUUID() },
      other,
      {
        algorithm: 'RS256',
        keyid: KID,
      },
    )
    expect(await grant(forged)).toEqual(refused('Invalid signature'))
  })

  it('refuses for a disabled provider (26.5.3, CVE-2026-1486), and as an unsupported grant with the feature off', async () => {
    keycloak.identityProviders.get(ALIAS)!.enabled = false
    expect(await grant(assertion())).toEqual(refused('Identity Provider is not enabled'))
    keycloak.identityProviders.get(ALIAS)!.enabled = true
    keycloak.features.delete('jwt-authorization-grant')
    expect(await grant(assertion())).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' },
    })
    keycloak.features.add('jwt-authorization-grant')
    expect((await grant(assertion())).status).toBe(200)
  })
})
