import { execFile } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  deriveTenantPassword,
  parseAssertionKey,
  requiredManagementScopes,
  TOKEN_EXCHANGE_CHECK_SCOPES,
  TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE,
} from '@pf/idp-clients'
import { createLogger, createMetricsRegistry, listen, type RunningServer } from '@pf/service-kit'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startAuth0Emulator, type Auth0Emulator, type EmulatedAuth0Client } from '@pf/testkit/emulators'
import { startMarketplaceIssuer, type MarketplaceIssuer } from '@pf/testkit/platform'
import { loadExchangeConfig } from '../src/config'
import { createExchange } from '../src/create-exchange'

// Issue 39, `token-exchange`: EXCHANGE_GRANT=token-exchange through the built exchange against the Auth0
// emulator's Custom Token Exchange: one profile whose Action is the repository's own
// (deploy/auth0/custom-token-exchange-action.js, the exchange's public keys as its PUBLIC_KEYS secret), the
// client allowed to use custom profiles. One emulator, one service process; a second replica in process for
// the key rotation.
const dist = join(__dirname, '..', 'dist')
const ACTION_FILE = join(__dirname, '..', 'deploy/auth0/custom-token-exchange-action.js')
const ISSUER = 'https://exchange.pf.example.com'
const SECRET = 'a-long-enough-client-secret-1234'
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const pem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString()
    // As a one-line environment file holds it.
    .replace(/\n/g, '\\n')
const [K1, K2, K3] = [pem(), pem(), pem()]
// The Action holds the current and the next key (what /.well-known/jwks.json publishes), so the rotated replica's
// current key is one the Action already trusts.
const publicKeys = JSON.stringify({ keys: [K1, K2].map((k) => parseAssertionKey(k).publicJwk) })

// Password-less: the client has no password grant. The doctor's test changes it (the emulator holds it by reference).
const grantTypes = ['client_credentials', 'refresh_token']
const client: EmulatedAuth0Client = {
  clientId: 'pf-exchange',
  clientSecret: SECRET,
  grantTypes,
  tokenExchange: { allow_any_profile_of_type: ['custom_authentication'] },
  trustTokenEndpointIpHeader: true,
}
const cleanup = createCleanup(afterAll)
let auth0: Auth0Emulator
let issuer: MarketplaceIssuer
let service: ServiceProcess
let url: string
let env: Record<string, string>

beforeAll(async () => {
  if (!existsSync(join(dist, 'main.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  auth0 = cleanup.add(
    await startAuth0Emulator({
      clients: [client],
      searchLagMs: 0,
      actions: [
        {
          id: 'act_pf',
          name: 'pf-exchange',
          file: ACTION_FILE,
          secrets: { ISSUER, AUDIENCE: 'https://pf-test.eu.auth0.com/', PUBLIC_KEYS: publicKeys },
        },
      ],
      tokenExchangeProfiles: [
        { name: 'pf-exchange', subject_token_type: TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE, action_id: 'act_pf' },
      ],
    }),
    (a) => a.stop(),
  )
  issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
  env = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    IDP_STYLE: 'tenant',
    PF_APPLICATION_ID: 'app_1',
    MARKETPLACE_JWKS_URL: issuer.jwksUrl,
    MARKETPLACE_ISSUER: issuer.issuer,
    TENANT_DOMAIN: auth0.domain,
    TENANT_BASE_URL: auth0.url,
    TENANT_CLIENT_ID: 'pf-exchange',
    TENANT_CLIENT_SECRET: SECRET,
    TENANT_AUDIENCE: 'https://api.pf.example.com',
    TENANT_CLAIM_NAMESPACE: auth0.namespace,
    EXCHANGE_GRANT: 'token-exchange',
    EXCHANGE_ASSERTION_ISSUER: ISSUER,
    EXCHANGE_SIGNING_KEY: K1,
    EXCHANGE_SIGNING_KEY_NEXT: K2,
  }
  service = cleanup.add(
    await startServiceProcess({ entry: join(dist, 'main.js'), env, readyMessage: 'auth exchange listening' }),
    (s) => s.stop('SIGKILL'),
  )
  url = (service.readyLine as { url: string }).url
})

async function exchange(userId: string, at = url, token = issuer.mint(claims(userId))) {
  const res = await fetch(`${at}/auth/exchange`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { access_token: string },
  }
}
const claims = (userId: string) => ({
  userId,
  orgId: 'org_1',
  applicationId: 'app_1',
  email: `${userId}@example.com`,
})
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>
const tokenRequests = (grant: string) =>
  auth0.requests.filter(
    (call) => call.path === '/oauth/token' && (call.body as { grant_type?: string }).grant_type === grant,
  )
const account = (userId: string) =>
  [...auth0.users.values()].find((u) => u.app_metadata?.pfUserId === userId)!

describe('EXCHANGE_GRANT=token-exchange (Auth0 Custom Token Exchange)', () => {
  it('exchanges through the Action: the first access token carries roles, orgId, pfUserId, pfApplicationId', async () => {
    const { status, body } = await exchange('u1')
    expect(status).toBe(200)
    // Auth0 answers this grant as the password grant: with offline_access requested, a refresh token too
    // (docs-v2 api/authentication/custom-token-exchange/get-token.mdx).
    expect(body).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      id_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
    })
    const ns = auth0.namespace
    const payload = payloadOf(body.access_token)
    expect(payload.sub).toBe(account('u1').user_id)
    expect(payload).toMatchObject({
      [`${ns}roles`]: ['pf-user'],
      [`${ns}orgId`]: 'org_1',
      [`${ns}pfUserId`]: 'u1',
      [`${ns}pfApplicationId`]: 'app_1',
    })
  })

  it('derives and sends no password: the account holds a random one, no password grant is ever made', async () => {
    const user = account('u1')
    expect(user.password).toEqual(expect.any(String))
    expect(user.password).not.toBe(deriveTenantPassword('u1', SECRET))
    expect(tokenRequests('http://auth0.com/oauth/grant-type/password-realm')).toEqual([])
    expect(tokenRequests('password')).toEqual([])
    const sent = JSON.stringify(auth0.requests.map((call) => call.body))
    expect(sent).not.toContain(deriveTenantPassword('u1', SECRET))
    // The assertion: the exchange's issuer, the marketplace user, the account, a fresh jti each.
    for (const call of tokenRequests(TOKEN_EXCHANGE)) {
      const assertion = payloadOf((call.body as { subject_token: string }).subject_token)
      expect(assertion).toMatchObject({ iss: ISSUER, sub: 'u1', auth0_user_id: user.user_id })
      expect((assertion.exp as number) - (assertion.iat as number)).toBeLessThanOrEqual(300)
    }
  })

  it('a repeat exchange answers again (the warm path)', async () => {
    expect((await exchange('u1')).status).toBe(200)
  })

  it('/auth/logout with the refresh_token ends it, as in password mode (README, "Modes")', async () => {
    const { body } = await exchange('u1')
    const res = await fetch(`${url}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: body.refresh_token }),
    })
    expect(res.status).toBe(204)
    const refreshed = await fetch(`${auth0.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: client.clientId,
        client_secret: SECRET,
        refresh_token: String(body.refresh_token),
      }),
    })
    expect(refreshed.status).toBeGreaterThanOrEqual(400)
  })

  it('rotates without a failed exchange: a replica whose current key was the next one signs at once', async () => {
    const config = loadExchangeConfig({ ...env, EXCHANGE_SIGNING_KEY: K2, EXCHANGE_SIGNING_KEY_NEXT: K3 })
    const logger = createLogger({ name: 'rotated', level: 'silent' })
    const { app } = createExchange(config, { logger, registry: createMetricsRegistry('rotated') })
    const rotated: RunningServer = cleanup.add(await listen(app, { port: 0, host: '127.0.0.1' }), (r) =>
      r.close(),
    )
    for (const userId of ['u1', 'u2']) expect((await exchange(userId, rotated.url)).status).toBe(200)
    expect((await exchange('u2')).status).toBe(200)
    const kids = tokenRequests(TOKEN_EXCHANGE).map(
      (call) =>
        JSON.parse(
          Buffer.from(
            (call.body as { subject_token: string }).subject_token.split('.')[0]!,
            'base64url',
          ).toString(),
        ).kid as string,
    )
    expect(new Set(kids)).toEqual(new Set([parseAssertionKey(K1).kid, parseAssertionKey(K2).kid]))
  })

  it('a forged assertion (signed by a key the Action does not hold, under a kid it does) is denied, no tokens; only it feeds throttling', async () => {
    const failures = () =>
      auth0.suspiciousIpFailures('127.0.0.1') + auth0.suspiciousIpFailures('::ffff:127.0.0.1')
    const replica = async (current: string, next: string) => {
      const config = loadExchangeConfig({
        ...env,
        EXCHANGE_SIGNING_KEY: current,
        EXCHANGE_SIGNING_KEY_NEXT: next,
      })
      const logger = createLogger({ name: 'other', level: 'silent' })
      const { app } = createExchange(config, { logger, registry: createMetricsRegistry('other') })
      return cleanup.add(await listen(app, { port: 0, host: '127.0.0.1' }), (r: RunningServer) => r.close())
    }
    // A key not configured yet (a kid the Action does not hold) is denied: it throttles no one.
    const unknown = await exchange('u1', (await replica(K3, K1)).url)
    expect(unknown.status).toBeGreaterThanOrEqual(400)
    expect(unknown.body).not.toHaveProperty('access_token')
    expect(failures()).toBe(0)
    // A forgery: K3's private key under K1's kid, so the signature does not verify.
    const { d, ...rest } = parseAssertionKey(K3).privateKey.export({ format: 'jwk' })
    const forgedKey = JSON.stringify({ ...rest, d, kid: parseAssertionKey(K1).kid })
    const forged = await exchange('u1', (await replica(forgedKey, K2)).url)
    expect(forged.status).toBeGreaterThanOrEqual(400)
    expect(forged.body).not.toHaveProperty('access_token')
    expect(failures()).toBe(1)
    // The genuine exchange still answers.
    expect((await exchange('u1')).status).toBe(200)
  })

  it('doctor: the profile, the application, the connection and the scopes pass; the password grant on, or a scope it reads with missing, fails', async () => {
    const doctor = () =>
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [join(dist, 'doctor.js')], { env }, (error, stdout) =>
          resolve({ code: error ? Number(error.code) : 0, stdout }),
        ),
      )
    const good = await doctor()
    expect(good.stdout).toMatch(
      /^ok {4}tenant token exchange profile {2}pf-exchange \(tep_\w+\) runs action act_pf$/m,
    )
    expect(good.stdout).toMatch(
      /^ok {4}tenant application for token exchange {2}pf-exchange: first-party, OIDC-conformant, custom_authentication allowed, no password grant$/m,
    )
    expect(good.stdout).toMatch(
      /^ok {4}tenant connection Username-Password-Authentication {2}exists \(database\)$/m,
    )
    expect(good.stdout).toMatch(/^ok {4}Management API scopes /m)
    expect(good.stdout).not.toMatch(/tenant password grant/)
    expect(good.code).toBe(0)
    client.grantTypes = [...grantTypes, 'http://auth0.com/oauth/grant-type/password-realm']
    try {
      const open = await doctor()
      expect(open.code).toBe(1)
      expect(open.stdout).toMatch(
        /^FAIL {2}tenant application for token exchange: application pf-exchange still allows the password grant/m,
      )
    } finally {
      client.grantTypes = grantTypes
    }
    // Every scope the exchange's calls need, and the doctor's reads but read:clients.
    client.scopes = [
      ...requiredManagementScopes('verified'),
      ...TOKEN_EXCHANGE_CHECK_SCOPES.filter((scope) => scope !== 'read:clients'),
    ]
    try {
      const blind = await doctor()
      expect(blind.code).toBe(1)
      expect(blind.stdout).toMatch(/^ok {4}tenant application for token exchange {2}not checked/m)
      expect(blind.stdout).toMatch(
        /^FAIL {2}Management API scopes: the grant lacks read:clients: the Custom Token/m,
      )
    } finally {
      delete client.scopes
    }
  })
})
