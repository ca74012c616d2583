import { execFile } from 'node:child_process'
import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createIdentityProvider } from '@pf/idp-clients'
import { createLogger, createMetricsRegistry, listen, type RunningServer } from '@pf/service-kit'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import { startMarketplaceIssuer, type MarketplaceIssuer } from '@pf/testkit/platform'
import { loadExchangeConfig } from '../src/config'
import { createExchange } from '../src/create-exchange'
import { providerGrantOf } from '../src/provider-grant'

// Issue 39, "An exchange without a stored password": EXCHANGE_GRANT=jwt-bearer through the built exchange against
// the Keycloak emulator's JWT Authorization Grant (26.5.3, the feature on, a public host name that differs from
// the address the exchange reaches it at). One emulator, one service process; a second replica in process for the
// key rotation; the bulk command run once.
const dist = join(__dirname, '..', 'dist')
const ISSUER = 'https://exchange.pf.example.com'
const ALIAS = 'pf-exchange'
const PUBLIC_HOST = 'https://id.pf.example.com'
const pem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString()
    // As a one-line environment file holds it.
    .replace(/\n/g, '\\n')
const [K1, K2, K3] = [pem(), pem(), pem()]

const cleanup = createCleanup(afterAll)
let keycloak: KeycloakEmulator
let issuer: MarketplaceIssuer
let service: ServiceProcess
let url: string
let env: Record<string, string>

const client = {
  clientId: 'pf-exchange',
  secret: 's3cret-s3cret-s3cret-s3cret-s3cret',
  directAccessGrants: false,
  // For the doctor's service-account run: it may not read /admin/serverinfo (403), so the grant is probed.
  serviceAccountRoles: [
    'manage-users',
    'view-users',
    'view-realm',
    'view-clients',
    'view-identity-providers',
  ],
  attributes: {
    'oauth2.jwt.authorization.grant.enabled': 'true',
    'oauth2.jwt.authorization.grant.idp': ALIAS,
  },
}

beforeAll(async () => {
  if (!existsSync(join(dist, 'main.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  keycloak = cleanup.add(
    await startKeycloakEmulator({
      serverVersion: '26.5.3',
      features: ['jwt-authorization-grant'],
      hostname: PUBLIC_HOST,
      clients: [client],
      unmanagedAttributes: true,
    }),
    (k) => k.stop(),
  )
  issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
  env = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    IDP_STYLE: 'realm',
    PF_APPLICATION_ID: 'app_1',
    MARKETPLACE_JWKS_URL: issuer.jwksUrl,
    MARKETPLACE_ISSUER: issuer.issuer,
    REALM_SERVER_URL: keycloak.url,
    REALM_NAME: 'pf',
    REALM_CLIENT_ID: client.clientId,
    REALM_CLIENT_SECRET: client.secret,
    REALM_ADMIN_USER: 'admin',
    REALM_ADMIN_PASSWORD: 'admin',
    EXCHANGE_GRANT: 'jwt-bearer',
    EXCHANGE_ASSERTION_ISSUER: ISSUER,
    EXCHANGE_SIGNING_KEY: K1,
    EXCHANGE_SIGNING_KEY_NEXT: K2,
  }
  service = cleanup.add(
    await startServiceProcess({ entry: join(dist, 'main.js'), env, readyMessage: 'auth exchange listening' }),
    (s) => s.stop('SIGKILL'),
  )
  url = (service.readyLine as { url: string }).url
  // The realm's provider of type "JWT Authorization Grant": the exchange's issuer and JWKS.
  keycloak.identityProviders.set(ALIAS, {
    alias: ALIAS,
    providerId: 'jwt-authorization-grant',
    enabled: true,
    config: { issuer: ISSUER, jwksUrl: `${url}/.well-known/jwks.json` },
    internalId: randomUUID(),
  })
})

const claims = (userId: string) => ({
  userId,
  orgId: 'org_1',
  applicationId: 'app_1',
  email: `${userId}@example.com`,
})
async function exchange(userId: string, at = url) {
  const res = await fetch(`${at}/auth/exchange`, {
    method: 'POST',
    headers: { authorization: `Bearer ${issuer.mint(claims(userId))}` },
  })
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { access_token: string },
  }
}
const account = (userId: string) =>
  [...keycloak.users.values()].find((u) => u.attributes.pfUserId?.[0] === userId)!
const seedPasswordModeUser = (userId: string, attributes: Record<string, string[]> = {}) =>
  keycloak.seedUser({
    username: `pf-${userId}`,
    email: `${userId}@example.com`,
    firstName: 'Marketplace',
    lastName: 'User',
    emailVerified: true,
    password: 'derived',
    attributes: { pfUserId: [userId], orgId: ['org_1'], pfApplicationId: ['app_1'], ...attributes },
  })

describe('EXCHANGE_GRANT=jwt-bearer (Keycloak JWT Authorization Grant)', () => {
  it('publishes the current and the next key before either signs', async () => {
    const res = await fetch(`${url}/.well-known/jwks.json`)
    const { keys } = (await res.json()) as { keys: { kid: string; alg: string; d?: string }[] }
    expect(keys).toHaveLength(2)
    expect(keys.map((k) => k.alg)).toEqual(['RS256', 'RS256'])
    expect(keys.some((k) => 'd' in k)).toBe(false)
  })

  it('syncs the user without a password, links it with the marketplace userId, answers without a refresh token', async () => {
    const { status, body } = await exchange('u1')
    expect(status).toBe(200)
    expect(body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' })
    expect(body).not.toHaveProperty('refresh_token')
    expect(body).not.toHaveProperty('refresh_expires_in')
    const user = account('u1')
    expect(user.password).toBeUndefined()
    expect(user.attributes.pfPasswordSetBy).toBeUndefined()
    expect(user.federatedIdentities).toEqual([{ identityProvider: ALIAS, userId: 'u1', userName: 'u1' }])
    // The provider loaded the JWKS once, holding both keys.
    expect(keycloak.jwksFetches()).toHaveLength(1)
    expect(keycloak.jwksFetches()[0]!.kids).toHaveLength(2)
  })

  it('a repeat exchange is one identity-provider round trip (the grant)', async () => {
    const before = keycloak.requests.length
    expect((await exchange('u1')).status).toBe(200)
    expect(keycloak.requests.length - before).toBe(1)
  })

  it('/auth/logout takes the access token and revokes it; a refresh_token alone is a 400', async () => {
    const { body } = await exchange('u1')
    const logout = (field: string) =>
      fetch(`${url}/auth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [field]: body.access_token }),
      })
    expect((await logout('refresh_token')).status).toBe(400)
    expect((await logout('access_token')).status).toBe(204)
    expect(keycloak.isRevoked(body.access_token)).toBe(true)
  })

  it('rotates without a failed exchange: a replica whose current key was the next one signs at once', async () => {
    // The rotated replica: K2 (the published next) signs, K3 is the new next. Keycloak loads a JWKS at most once
    // every 10 s: only a key it already holds can sign now.
    const config = loadExchangeConfig({ ...env, EXCHANGE_SIGNING_KEY: K2, EXCHANGE_SIGNING_KEY_NEXT: K3 })
    const logger = createLogger({ name: 'rotated', level: 'silent' })
    const { app } = createExchange(config, { logger, registry: createMetricsRegistry('rotated') })
    const rotated: RunningServer = cleanup.add(await listen(app, { port: 0, host: '127.0.0.1' }), (r) =>
      r.close(),
    )
    for (const userId of ['u1', 'u2']) expect((await exchange(userId, rotated.url)).status).toBe(200)
    expect((await exchange('u1')).status).toBe(200)
    expect(keycloak.jwksFetches()).toHaveLength(1)
  })

  it('removes a password the exchange had marked at the next exchange, and keeps an unmarked one', async () => {
    seedPasswordModeUser('u3', { pfPasswordSetBy: ['exchange'] })
    seedPasswordModeUser('u4')
    for (const userId of ['u3', 'u4']) expect((await exchange(userId)).status).toBe(200)
    expect(account('u3').password).toBeUndefined()
    expect(account('u3').attributes.pfPasswordSetBy).toBeUndefined()
    expect(account('u4').password).toBe('derived')
  })

  it('pf-exchange-passwords remove: every marked password in bulk, the unmarked kept', async () => {
    for (const userId of ['u5', 'u6']) seedPasswordModeUser(userId, { pfPasswordSetBy: ['exchange'] })
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(dist, 'exchange-passwords.js'), 'remove'],
      {
        env,
      },
    )
    expect(stdout).toBe('removed 2 password(s) the exchange had set, from 2 account(s)\n')
    expect([account('u5').password, account('u6').password, account('u4').password]).toEqual([
      undefined,
      undefined,
      'derived',
    ])
  })

  it('endUserSessions says there is nothing to end (the sessions are transient)', async () => {
    const config = loadExchangeConfig(env)
    const idp = createIdentityProvider(config.idp, { signInGrant: providerGrantOf(config.grant).signInGrant })
    expect(await idp.endUserSessions({ pfUserId: 'u1', endedAt: Date.now() })).toEqual({
      outcome: 'nothing-to-end',
      reason: expect.stringContaining('transient'),
    })
  })

  it('the provider refuses a disabled account: the exchange answers an error, not tokens', async () => {
    account('u2').enabled = false
    const { status, body } = await exchange('u2')
    expect(status).toBeGreaterThanOrEqual(400)
    expect(body).not.toHaveProperty('access_token')
  })

  it('doctor: version, feature, provider and client pass; it fails while Direct Access Grants are on', async () => {
    const doctor = (extra: Record<string, string> = {}) =>
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(
          process.execPath,
          [join(dist, 'doctor.js')],
          { env: { ...env, ...extra } },
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        ),
      )
    const good = await doctor()
    expect(good.stdout).toMatch(
      /^ok {4}realm JWT Authorization Grant \(server\) +Keycloak 26\.5\.3, feature/m,
    )
    expect(good.stdout).toMatch(/^ok {4}realm identity provider pf-exchange /m)
    expect(good.stdout).toMatch(/^ok {4}realm client pf-exchange +confidential, JWT Authorization Grant/m)
    expect(good.code).toBe(0)
    // A service account cannot read serverinfo: the token endpoint is probed instead.
    const probed = await doctor({ REALM_ADMIN_AUTH: 'client_credentials' })
    expect(probed.stdout).toMatch(
      /^ok {4}realm JWT Authorization Grant \(server\) +the grant answers \(probed/m,
    )
    client.directAccessGrants = true
    try {
      const open = await doctor()
      expect(open.code).toBe(1)
      expect(open.stdout).toMatch(/^FAIL {2}realm client pf-exchange: Direct Access Grants are on/m)
    } finally {
      client.directAccessGrants = false
    }
  })
})
