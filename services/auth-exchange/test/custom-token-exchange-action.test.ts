import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { startAuth0Emulator, type Auth0Emulator } from '@pf/testkit/emulators'

// The Custom Token Exchange Action shipped in deploy/auth0, run by the Auth0 emulator from its source file
// as Auth0 runs it (event, api): a forged assertion is rejected as an invalid subject token (Suspicious IP
// Throttling counts it), anything else wrong is denied (counts nothing), a good one signs the user in (issue 39).
const ACTION_FILE = join(__dirname, '..', 'deploy/auth0/custom-token-exchange-action.js')
// The Login flow runs the repository's post-login Action after the exchange's: the claims come from it, under
// a namespace of its secret's (not the emulator's default).
const POST_LOGIN_FILE = join(__dirname, '..', 'deploy/auth0/post-login-action.js')
const NAMESPACE = 'https://claims.pf.example.com/'
const ISSUER = 'https://exchange.pf.example.com'
const AUDIENCE = 'https://pf-test.eu.auth0.com/'
const TYPE = 'urn:pf:exchange-assertion'
const JWKS_TYPE = 'urn:pf:exchange-assertion-jwks'
const CLIENT = {
  clientId: 'pf-exchange',
  clientSecret: 'pf-exchange-secret',
  tokenExchange: { allow_any_profile_of_type: ['custom_authentication'] },
  trustTokenEndpointIpHeader: true,
}

const ec = { kid: 'ec-1', alg: 'ES256', ...generateKeyPairSync('ec', { namedCurve: 'P-256' }) }
const rsa = { kid: 'rsa-1', alg: 'RS256', ...generateKeyPairSync('rsa', { modulusLength: 2048 }) }
type Key = { kid: string; alg: string; privateKey: KeyObject; publicKey: KeyObject }
const jwk = (key: Key) => ({
  ...key.publicKey.export({ format: 'jwk' }),
  kid: key.kid,
  alg: key.alg,
  use: 'sig',
})

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
function assertion(claims: Record<string, unknown>, key: Key = ec, header: Record<string, unknown> = {}) {
  const signed = `${b64({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header })}.${b64(claims)}`
  const signer =
    key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' as const } : key.privateKey
  return `${signed}.${sign('sha256', Buffer.from(signed), signer).toString('base64url')}`
}

let auth0: Auth0Emulator
let jwksServer: Server
let userId = ''
const now = () => Math.floor(Date.now() / 1000)
const claimsFor = (overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: 'marketplace-user-1',
  aud: AUDIENCE,
  iat: now(),
  exp: now() + 120,
  jti: randomUUID(),
  auth0_user_id: userId,
  ...overrides,
})

beforeAll(async () => {
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk(rsa)] }))
  })
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`
  auth0 = await startAuth0Emulator({
    clients: [CLIENT, { clientId: 'no-cte', clientSecret: 'no-cte-secret' }],
    actions: [
      {
        id: 'act_keys',
        name: 'pf-exchange',
        file: ACTION_FILE,
        secrets: { ISSUER, AUDIENCE, PUBLIC_KEYS: JSON.stringify({ keys: [jwk(ec)] }) },
      },
      {
        id: 'act_jwks',
        name: 'pf-exchange-jwks',
        file: ACTION_FILE,
        secrets: { ISSUER, AUDIENCE, JWKS_URL: jwksUrl },
      },
    ],
    postLoginAction: { file: POST_LOGIN_FILE, secrets: { CLAIM_NAMESPACE: NAMESPACE } },
    tokenExchangeProfiles: [
      { name: 'pf', subject_token_type: TYPE, action_id: 'act_keys' },
      { name: 'pf-jwks', subject_token_type: JWKS_TYPE, action_id: 'act_jwks' },
    ],
  })
  const user = auth0.seedUser({
    email: 'cte@example.com',
    password: 'never-used-1A!',
    email_verified: true,
    app_metadata: { pfUserId: 'marketplace-user-1', orgId: 'org-1', pfApplicationId: 'app-1' },
    roles: new Set(['rol_pfUser0000001']),
  })
  userId = user.user_id
})
afterAll(async () => {
  await auth0.stop()
  await new Promise((resolve) => jwksServer.close(resolve))
})

let addresses = 0
/** Each test speaks from its own address (auth0-forwarded-for, trusted), so throttling counts per test. */
const exchange = async (
  subjectToken: string,
  { type = TYPE, ip = `203.0.113.${(addresses += 1)}`, client = CLIENT } = {},
) => {
  const response = await fetch(`${auth0.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'auth0-forwarded-for': ip },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      subject_token: subjectToken,
      subject_token_type: type,
      audience: 'https://api.pf.example.com',
      scope: 'openid offline_access',
    }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, string>, ip }
}
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString())

describe('the custom-token-exchange Action (deploy/auth0), run by the Auth0 emulator', () => {
  it('signs in the user an ES256 assertion names (PUBLIC_KEYS): the first access token carries every claim of the post-login Action', async () => {
    const { status, body } = await exchange(assertion(claimsFor()))
    expect(status).toBe(200)
    expect(body).toMatchObject({
      token_type: 'Bearer',
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    })
    expect(body.refresh_token).toEqual(expect.any(String))
    expect(payloadOf(body.access_token ?? '')).toMatchObject({
      sub: userId,
      [`${NAMESPACE}roles`]: ['pf-user'],
      [`${NAMESPACE}pfUserId`]: 'marketplace-user-1',
      [`${NAMESPACE}orgId`]: 'org-1',
      [`${NAMESPACE}pfApplicationId`]: 'app-1',
    })
  })

  it('verifies an RS256 assertion against the JWKS at JWKS_URL', async () => {
    const { status, body } = await exchange(assertion(claimsFor(), rsa), { type: JWKS_TYPE })
    expect(status).toBe(200)
    expect(payloadOf(body.access_token ?? '').sub).toBe(userId)
  })

  it.each([
    ['the jti was used', 'reused', /already used/],
    // Times are read when the test runs, not when the table is built: a busy machine may start it much later.
    ['it has expired', () => ({ exp: now() - 60, iat: now() - 120 }), /expired/],
    ['it lives longer than 5 minutes', () => ({ exp: now() + 400 }), /longer than 300/],
    ['iat is in the future', () => ({ iat: now() + 120, exp: now() + 240 }), /future/],
    ['another issuer', { iss: 'https://someone-else.example.com' }, /issuer/],
    ['another audience', { aud: 'https://other-tenant.eu.auth0.com/' }, /aud/],
    ['no jti', { jti: undefined }, /jti/],
    ['no Auth0 user_id', { auth0_user_id: undefined }, /auth0_user_id/],
    ['a key the Action does not know yet (a rotation ahead of PUBLIC_KEYS)', 'unknown-kid', /ec-next/],
    ['its payload is not a JSON object', 'not-object', /not a JSON object/],
  ])('denies an assertion when %s, and throttling counts nothing', async (_what, change, reason) => {
    let token: string
    if (change === 'reused') {
      token = assertion(claimsFor())
      expect((await exchange(token)).status).toBe(200)
    } else if (change === 'not-object') {
      token = assertion(claimsFor()).replace(/\.[^.]+\./, `.${b64(null)}.`)
    } else if (change === 'unknown-kid') {
      token = assertion(claimsFor(), { ...ec, kid: 'ec-next' })
    } else
      token = assertion(
        claimsFor(typeof change === 'function' ? change() : (change as Record<string, unknown>)),
      )
    const { status, body, ip } = await exchange(token)
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'invalid_request' })
    expect(body.error_description).toMatch(reason)
    expect(auth0.suspiciousIpFailures(ip)).toBe(0)
  })

  it.each([
    [
      'a signature that does not verify',
      () => assertion(claimsFor()).replace(/\.[^.]+$/, `.${'A'.repeat(86)}`),
    ],
    [
      'another key under the exchange key id',
      () => assertion(claimsFor(), { ...ec, ...generateKeyPairSync('ec', { namedCurve: 'P-256' }) }),
    ],
    ['alg none', () => `${b64({ alg: 'none', kid: ec.kid })}.${b64(claimsFor())}.`],
    [
      'HS256 (the public key as an HMAC secret)',
      () => assertion(claimsFor()).replace(/^[^.]+/, b64({ alg: 'HS256', kid: ec.kid })),
    ],
  ])(
    'rejects a forged assertion (%s) as an invalid subject token: one failure for the address',
    async (_what, forge) => {
      const { status, body, ip } = await exchange(forge())
      expect({ status, error: body.error }).toEqual({ status: 400, error: 'invalid_request' })
      expect(auth0.suspiciousIpFailures(ip)).toBe(1)
    },
  )

  it('after 10 forged assertions from one address, answers 429 too_many_attempts there, even a good assertion, without running the Action', async () => {
    const ip = '198.51.100.7'
    const forged = assertion(claimsFor()).replace(/\.[^.]+$/, `.${'A'.repeat(86)}`)
    for (let i = 0; i < 10; i += 1) expect((await exchange(forged, { ip })).status).toBe(400)
    const runs = auth0.exchangeActionRuns()
    const blocked = await exchange(assertion(claimsFor()), { ip })
    expect(blocked).toMatchObject({ status: 429, body: { error: 'too_many_attempts' } })
    expect(auth0.exchangeActionRuns()).toBe(runs)
    expect((await exchange(assertion(claimsFor()), { ip: '198.51.100.8' })).status).toBe(200)
  })

  it('denies with server_error (500) when the Action lacks its secrets', async () => {
    auth0.setActionSecrets('act_keys', { ISSUER })
    try {
      const { status, body, ip } = await exchange(assertion(claimsFor()))
      expect({ status, error: body.error }).toEqual({ status: 500, error: 'server_error' })
      expect(body.error_description).toContain('AUDIENCE')
      expect(auth0.suspiciousIpFailures(ip)).toBe(0)
    } finally {
      auth0.setActionSecrets('act_keys', {
        ISSUER,
        AUDIENCE,
        PUBLIC_KEYS: JSON.stringify({ keys: [jwk(ec)] }),
      })
    }
  })

  it('runs only for an application allowed custom profiles, and only for a registered subject_token_type', async () => {
    const refused = await exchange(assertion(claimsFor()), {
      client: { ...CLIENT, clientId: 'no-cte', clientSecret: 'no-cte-secret' },
    })
    expect(refused).toMatchObject({ status: 403, body: { error: 'unauthorized_client' } })
    const unknown = await exchange(assertion(claimsFor()), { type: 'urn:pf:something-else' })
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
  })
})
