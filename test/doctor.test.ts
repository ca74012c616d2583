import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup, freePort } from '@pf/testkit'
import {
  startAuth0Emulator,
  startKeycloakEmulator,
  type Auth0EmulatorOptions,
  type KeycloakEmulatorOptions,
} from '@pf/testkit/emulators'
import { startMarketplaceIssuer } from '@pf/testkit/platform'
import { redisCommand, startRedis, type RedisHandle } from '@pf/testkit/redis'
import { startS3Server, type S3ServerHandle } from '@pf/testkit/s3'

// Each service's doctor as an operator runs it (the built dist/doctor.js), against real dependencies: one line
// per check, exit 1 on any failure.
const root = join(__dirname, '..')
interface Run {
  code: number
  stdout: string
}
const doctor = (service: string, env: Record<string, string>) =>
  new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'services', service, 'dist', 'doctor.js')],
      { env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env } },
      (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
    )
  })

const cleanup = createCleanup(afterAll)
let redis: RedisHandle
let s3: S3ServerHandle
let jwksUrl: string
let keycloakUrl: string
beforeAll(async () => {
  redis = cleanup.add(await startRedis(), (r) => r.stop())
  s3 = cleanup.add(await startS3Server({ buckets: ['pf-deliveries'] }), (s) => s.stop())
  const issuer = cleanup.add(await startMarketplaceIssuer({ port: 0 }), (i) => i.stop())
  jwksUrl = issuer.jwksUrl
  const keycloak = cleanup.add(
    await startKeycloakEmulator({
      port: 0,
      adminPassword: 'a-long-enough-admin-password-123',
      clients: [{ clientId: 'pf-exchange', secret: 'a-long-enough-client-secret-1234' }],
      unmanagedAttributes: true,
      userProfile: 'names-optional',
    }),
    (k) => k.stop(),
  )
  keycloakUrl = keycloak.url
})

const providerEnv = () => ({
  PF_API_KEY: 'a-real-api-key-of-our-own-0123456789',
  S3_ENDPOINT: s3.endpoint,
  AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
})

describe('doctor', () => {
  it('provider: all ok, exit 0; a missing bucket is one failed line, exit 1', async () => {
    const good = await doctor('provider', providerEnv())
    expect(good.code).toBe(0)
    expect(good.stdout).toMatch(
      /^ok {4}settings parse\nok {4}production rules {2}not applied \(NODE_ENV is not production\); these settings pass them too\nok {4}S3 bucket pf-deliveries {2}exists/,
    )
    const bad = await doctor('provider', { ...providerEnv(), S3_DEFAULT_BUCKET: 'nope' })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toMatch(/^FAIL {2}S3 bucket nope: .*\(fix: create the bucket/m)
  })

  // Issue 35: without NODE_ENV=production the doctor does not claim production rules apply.
  it('without NODE_ENV=production, the demo key is a warning that production would refuse it, not a failure (exit 0)', async () => {
    const run = await doctor('provider', { ...providerEnv(), PF_API_KEY: 'pf-demo-api-key' })
    expect(run.stdout).toMatch(
      /^warn {2}production rules: not applied \(NODE_ENV is not production\); with NODE_ENV=production the service would refuse to start: PF_API_KEY must be set to your own secret/m,
    )
    expect(run.stdout).not.toMatch(/^FAIL/m)
    expect(run.code).toBe(0)
    const production = await doctor('provider', {
      ...providerEnv(),
      PF_API_KEY: 'pf-demo-api-key',
      NODE_ENV: 'production',
    })
    expect(production.stdout).toMatch(/^FAIL {2}settings: PF_API_KEY must be set to your own secret/m)
    expect(production.stdout).not.toMatch(/not applied/)
    expect(production.code).toBe(1)
  })

  // Issue 35: a settings failure does not hide the checks that can still run.
  it('NODE_ENV=production: a placeholder secret and an unreachable Redis are both reported in one run', async () => {
    const run = await doctor('webhook-receiver', {
      NODE_ENV: 'production',
      ALLOW_PLAIN_HTTP: 'true',
      PF_WEBHOOK_SECRET: 'change-me',
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    })
    expect(run.stdout).toMatch(/^FAIL {2}settings: PF_WEBHOOK_SECRET holds a placeholder/m)
    expect(run.stdout).toMatch(
      /^FAIL {2}Redis at redis:\/\/127\.0\.0\.1:\d+: does not answer \(connect ECONNREFUSED [^)]+\) \(fix: start Redis/m,
    )
    expect(run.code).toBe(1)
  })

  it('a setting a check needs is wrong: that check is skipped, naming it; the others still run', async () => {
    const run = await doctor('webhook-receiver', {
      PF_WEBHOOK_SECRET: 'whsec_a-real-secret-from-the-portal-0123',
      WEBHOOK_PATH: 'no-slash',
      REDIS_URL: redis.url,
      REDIS_SENTINELS: '127.0.0.1:1',
    })
    expect(run.stdout).toMatch(/^FAIL {2}settings: WEBHOOK_PATH must start with \//m)
    expect(run.stdout).toMatch(/^skip {2}Redis at .* {2}not run: it needs REDIS_URL \(see above\)$/m)
    expect(run.code).toBe(1)
    // The settings fail on WEBHOOK_PATH only: Redis, which does not read it, is checked all the same.
    const other = await doctor('webhook-receiver', {
      PF_WEBHOOK_SECRET: 'whsec_a-real-secret-from-the-portal-0123',
      WEBHOOK_PATH: 'no-slash',
      REDIS_URL: redis.url,
    })
    expect(other.stdout).toMatch(/^ok {4}Redis at redis:\/\/127\.0\.0\.1:\d+ {2}answers/m)
    expect(other.code).toBe(1)
  })

  it('webhook receiver: Redis answers with noeviction, exit 0; another maxmemory-policy fails with its fix', async () => {
    const env = { PF_WEBHOOK_SECRET: 'whsec_a-real-secret-from-the-portal-0123', REDIS_URL: redis.url }
    const good = await doctor('webhook-receiver', env)
    expect(good).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^ok {4}Redis at .* maxmemory-policy noeviction$/m),
    })
    const port = Number(new URL(redis.url).port)
    await redisCommand(port, ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru'])
    try {
      const bad = await doctor('webhook-receiver', env)
      expect(bad.code).toBe(1)
      expect(bad.stdout).toMatch(
        /^FAIL {2}Redis at .*: maxmemory-policy is allkeys-lru.*\(fix: set maxmemory-policy noeviction\)$/m,
      )
    } finally {
      await redisCommand(port, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction'])
    }
  })

  // Issue 38: a QUEUE_SHARDS other than the one Redis records would be refused at start; the doctor says so first.
  it('webhook receiver: the QUEUE_SHARDS recorded in Redis is checked, read only; another fails with the setting to start with', async () => {
    const env = {
      PF_WEBHOOK_SECRET: 'whsec_a-real-secret-from-the-portal-0123',
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: '{doctor-layout}',
    }
    const port = Number(new URL(redis.url).port)
    const fresh = await doctor('webhook-receiver', env)
    expect(fresh.stdout).toMatch(
      /^ok {4}queue layout QUEUE_SHARDS=1 {2}none recorded yet: the first start records 1 shard/m,
    )
    expect(await redisCommand(port, ['EXISTS', '{doctor-layout}:webhooks:layout'])).toBe(0)
    await redisCommand(port, ['HSET', '{doctor-layout}:webhooks:layout', 'shards', '3'])
    const same = await doctor('webhook-receiver', { ...env, QUEUE_SHARDS: '3' })
    expect(same).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^ok {4}queue layout QUEUE_SHARDS=3 {2}Redis records 3 shard\(s\)$/m),
    })
    // The resharding procedure's settings: the doctor says the first start begins it, and records nothing.
    const resharding = await doctor('webhook-receiver', {
      ...env,
      QUEUE_SHARDS: '2',
      QUEUE_RESHARD_FROM: '3',
    })
    expect(resharding.stdout).toMatch(
      /^ok {4}queue layout QUEUE_SHARDS=2 {2}Redis records 3 shard\(s\); the first start with these settings begins the resharding to 2$/m,
    )
    const other = await doctor('webhook-receiver', env)
    expect(other.code).toBe(1)
    expect(other.stdout).toMatch(
      /^FAIL {2}queue layout QUEUE_SHARDS=1: QUEUE_SHARDS=1 but Redis records 3 shard\(s\).*\(fix: Start with QUEUE_SHARDS=3, or change it by the resharding procedure/m,
    )
  })

  it('auth exchange: each missing setting is a failed line; with them, the JWKS and the identity provider answer', async () => {
    const missing = await doctor('auth-exchange', {})
    expect(missing.code).toBe(1)
    expect(missing.stdout).toMatch(/^FAIL {2}settings: MARKETPLACE_JWKS_URL is required$/m)
    expect(missing.stdout).toMatch(/^skip {2}marketplace JWKS {2}not run: it needs MARKETPLACE_JWKS_URL/m)
    const env = {
      IDP_STYLE: 'realm',
      PF_APPLICATION_ID: 'app_1',
      MARKETPLACE_JWKS_URL: jwksUrl,
      MARKETPLACE_ISSUER: 'https://marketplace.example',
      REALM_SERVER_URL: keycloakUrl,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: 'a-long-enough-client-secret-1234',
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'a-long-enough-admin-password-123',
    }
    const good = await doctor('auth-exchange', env)
    expect(good.stdout).toMatch(/^ok {4}marketplace JWKS {2}1 key\(s\)/m)
    expect(good.stdout).toMatch(/^ok {4}identity provider \(realm\) {2}answers at /m)
    expect(good.code).toBe(0)
    const down = await doctor('auth-exchange', { ...env, MARKETPLACE_JWKS_URL: 'http://127.0.0.1:1/jwks' })
    expect(down.code).toBe(1)
    expect(down.stdout).toMatch(/^FAIL {2}marketplace JWKS: http:\/\/127\.0\.0\.1:1\/jwks does not answer/m)
  })

  // Issue 28: the identity provider is set up as the spec requires, as far as its admin API can tell.
  const exchangeBase = () => ({
    PF_APPLICATION_ID: 'app_1',
    MARKETPLACE_JWKS_URL: jwksUrl,
    MARKETPLACE_ISSUER: 'https://marketplace.example',
  })
  const CLIENT_SECRET = 'a-long-enough-client-secret-1234'
  const ADMIN_PASSWORD = 'a-long-enough-admin-password-123'
  // What the realm import (services/auth-exchange/deploy/keycloak/pf-realm.json) sets up.
  const wellSetUpRealm: KeycloakEmulatorOptions = {
    adminPassword: ADMIN_PASSWORD,
    clients: [{ clientId: 'pf-exchange', secret: CLIENT_SECRET }],
    unmanagedAttributes: true,
    userProfile: 'names-optional',
  }
  const realmDoctor = async (options: KeycloakEmulatorOptions, env: Record<string, string> = {}) => {
    const keycloak = cleanup.add(await startKeycloakEmulator({ ...wellSetUpRealm, ...options }), (k) =>
      k.stop(),
    )
    return doctor('auth-exchange', {
      ...exchangeBase(),
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: keycloak.url,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: CLIENT_SECRET,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    })
  }

  it('auth exchange, Keycloak set up as the spec requires: client, user profile, pf-user role and Verify Profile all ok, exit 0', async () => {
    const good = await realmDoctor({})
    expect(good.stdout).not.toMatch(/^FAIL/m)
    expect(good.stdout).toMatch(
      /^ok {4}realm client pf-exchange {2}confidential, direct access grants enabled$/m,
    )
    expect(good.stdout).toMatch(
      /^ok {4}realm user profile keeps pfUserId {2}unmanagedAttributePolicy ADMIN_EDIT$/m,
    )
    expect(good.stdout).toMatch(/^ok {4}realm role pf-user {2}exists$/m)
    expect(good.stdout).toMatch(
      /^ok {4}realm Verify Profile {2}enabled; the user profile requires nothing the exchange does not set$/m,
    )
    expect(good.code).toBe(0)
  })

  it.each<[string, KeycloakEmulatorOptions, RegExp]>([
    [
      'direct access grants off',
      { clients: [{ clientId: 'pf-exchange', secret: CLIENT_SECRET, directAccessGrants: false }] },
      /^FAIL {2}realm client pf-exchange: direct access grants are off \(fix: enable Direct access grants/m,
    ],
    [
      'a public client',
      { clients: [{ clientId: 'pf-exchange', secret: CLIENT_SECRET, publicClient: true }] },
      /^FAIL {2}realm client pf-exchange: the client is public \(fix: turn Client authentication on/m,
    ],
    [
      'unmanaged attributes off (pfUserId dropped)',
      { unmanagedAttributes: false },
      /^FAIL {2}realm user profile keeps pfUserId: pfUserId, orgId, pfApplicationId would be dropped: .*unmanagedAttributePolicy is off \(fix: set unmanagedAttributePolicy to ADMIN_EDIT/m,
    ],
    [
      'no pf-user role',
      { roles: ['org-admin'] },
      /^FAIL {2}realm role pf-user: realm "pf" has no role pf-user \(fix: create the realm role pf-user\)$/m,
    ],
    [
      'a custom attribute the user profile requires, with Verify Profile on',
      { requiredAttributes: ['phoneNumber'] },
      /^FAIL {2}realm Verify Profile: enabled, and the user profile requires phoneNumber of every user, which the exchange never sets: .*Account is not fully set up.*\(fix: make phoneNumber optional in the user profile, or disable Verify Profile\)$/m,
    ],
  ])('auth exchange, Keycloak with %s: its one failed line, exit 1', async (_case, options, line) => {
    const bad = await realmDoctor(options)
    expect(bad.stdout).toMatch(line)
    expect(bad.stdout.match(/^FAIL/gm)).toHaveLength(1)
    expect(bad.code).toBe(1)
  })

  it("auth exchange, Keycloak's stock user profile (names required at login): ok, the exchange sets names (the JWT's, else the fallback)", async () => {
    const run = await realmDoctor({ userProfile: 'default' })
    expect(run.stdout).toMatch(
      /^ok {4}realm Verify Profile {2}enabled; the user profile requires firstName, lastName, which the exchange sets/m,
    )
    expect(run.code).toBe(0)
  })

  it('auth exchange, Keycloak with Verify Profile off: what the user profile requires blocks no sign-in', async () => {
    const run = await realmDoctor({ requiredAttributes: ['phoneNumber'], verifyProfile: false })
    expect(run.stdout).toMatch(/^ok {4}realm Verify Profile {2}disabled$/m)
    expect(run.code).toBe(0)
  })

  it("auth exchange, Keycloak through the client's service account without view-clients: the client line says not checked, the rest pass", async () => {
    const roles = ['manage-users', 'view-users', 'query-users', 'view-realm']
    const run = await realmDoctor(
      { clients: [{ clientId: 'pf-exchange', secret: CLIENT_SECRET, serviceAccountRoles: roles }] },
      { REALM_ADMIN_AUTH: 'client_credentials', REALM_VERSION: '26' },
    )
    expect(run.stdout).toMatch(
      /^ok {4}realm client pf-exchange {2}not checked: the admin account may not read it \(realm-management view-clients\)$/m,
    )
    expect(run.stdout).toMatch(/^ok {4}realm role pf-user {2}exists$/m)
    expect(run.stdout).not.toMatch(/^FAIL/m)
    expect(run.code).toBe(0)
  })

  // Issue 35: one redaction for every printed address (userinfo and credential-like query parameters).
  it("provider: a list source's user, password and token are never printed, its host, path and options are", async () => {
    const port = await freePort()
    const run = await doctor('provider', {
      ...providerEnv(),
      SANCTIONS_SOURCES: `ofac-csv:http://reader:s3cr3t-pw@127.0.0.1:${port}/ofac/sdn.csv?token=t0ken-value&format=csv`,
    })
    expect(run.stdout).toMatch(
      new RegExp(
        `^FAIL  list source ofac-csv:http://\\*\\*\\*@127\\.0\\.0\\.1:${port}/ofac/sdn\\.csv\\?token=\\*\\*\\*&format=csv: .*could not be fetched`,
        'm',
      ),
    )
    expect(run.stdout).not.toMatch(/reader|s3cr3t|t0ken-value/)
    expect(run.code).toBe(1)
  })

  // Issue 35: the doctor loads a list source within the start's own limits, so it fails what a start would refuse.
  it('provider: a list source the start would refuse (empty without allow-empty:, past SANCTIONS_MAX_BYTES) fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-doctor-lists-'))
    const empty = join(dir, 'consolidated.xml')
    writeFileSync(
      empty,
      '<CONSOLIDATED_LIST dateGenerated="2026-01-01T00:00:00Z"><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>\n',
    )
    const refused = await doctor('provider', { ...providerEnv(), SANCTIONS_SOURCES: empty })
    expect(refused.stdout).toMatch(/^FAIL {2}list source .*consolidated\.xml: .*un-sc-consolidated is empty/m)
    expect(refused.code).toBe(1)
    const allowed = await doctor('provider', { ...providerEnv(), SANCTIONS_SOURCES: `allow-empty:${empty}` })
    expect(allowed.stdout).toMatch(
      /^ok {4}list source allow-empty:.*consolidated\.xml {2}loads: un-sc-consolidated/m,
    )
    const big = join(dir, 'big.jsonl')
    writeFileSync(
      big,
      `${JSON.stringify({ id: 'B1', name: 'A LISTED PARTY', type: 'individual' })}\n`.repeat(40_000),
    )
    const tooBig = await doctor('provider', {
      ...providerEnv(),
      SANCTIONS_SOURCES: big,
      SANCTIONS_MAX_BYTES: '1048576',
    })
    expect(tooBig.stdout).toMatch(/^FAIL {2}list source .*big\.jsonl: .*SANCTIONS_MAX_BYTES/m)
    expect(tooBig.code).toBe(1)
  })

  it("auth exchange: MARKETPLACE_JWKS_URL's and REALM_SERVER_URL's passwords and tokens are never printed", async () => {
    const keycloak = cleanup.add(await startKeycloakEmulator(wellSetUpRealm), (k) => k.stop())
    const withSecrets = (url: string) => url.replace('//', '//admin:hunter2-pw@')
    const run = await doctor('auth-exchange', {
      ...exchangeBase(),
      MARKETPLACE_JWKS_URL: `${withSecrets(jwksUrl)}?access_token=t0ken-value`,
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: withSecrets(keycloak.url),
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: CLIENT_SECRET,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    })
    expect(run.stdout).toMatch(
      /^FAIL {2}marketplace JWKS: http:\/\/\*\*\*@127\.0\.0\.1:\d+\/\.well-known\/jwks\.json\?access_token=\*\*\* does not answer/m,
    )
    expect(run.stdout).toMatch(
      /^\w+ +identity provider \(realm\)[ :].*http:\/\/\*\*\*@127\.0\.0\.1:\d+\/realms\/pf\//m,
    )
    expect(run.stdout).not.toMatch(/hunter2|t0ken-value/)
  })

  it('auth exchange without MARKETPLACE_JWKS_URL: that check is skipped; the identity-provider checks run and pass', async () => {
    const run = await realmDoctor({}, { MARKETPLACE_JWKS_URL: '' })
    expect(run.stdout).toMatch(/^FAIL {2}settings: MARKETPLACE_JWKS_URL is required$/m)
    expect(run.stdout).toMatch(/^skip {2}marketplace JWKS {2}not run: it needs MARKETPLACE_JWKS_URL/m)
    expect(run.stdout).toMatch(/^ok {4}identity provider \(realm\) {2}answers at /m)
    expect(run.stdout).toMatch(/^ok {4}realm role pf-user {2}exists$/m)
    expect(run.stdout.match(/^FAIL/gm)).toHaveLength(1)
    expect(run.code).toBe(1)
  })

  // Issue 36: `pnpm doctor` is pnpm's own built-in (it prints nothing and exits 0), so the README must name a
  // command pnpm hands to our script. Exactly the README's command runs here, read from its Commands table.
  it("the README's root command runs every service's doctor: each one's lines under its name, exit 0, and 1 when one fails", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const row = readme.split('\n').find((line) => /^\| `[^`]+` +\|.*dist\/doctor\.js/.test(line))
    const command = /^\| `([^`]+)`/.exec(row ?? '')?.[1] ?? ''
    expect(command).toMatch(/^pnpm [a-z-]+$/)
    const [bin = '', ...args] = command.split(' ')
    const run = (env: Record<string, string>) =>
      new Promise<Run>((resolve) => {
        execFile(
          bin,
          args,
          { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        )
      })
    const everyService = {
      ...providerEnv(),
      PF_WEBHOOK_SECRET: 'whsec_a-real-secret-from-the-portal-0123',
      REDIS_URL: redis.url,
      ...exchangeBase(),
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: keycloakUrl,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: CLIENT_SECRET,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    }
    const good = await run(everyService)
    expect(good.stdout).toMatch(/^provider:\nok {4}settings parse\n[\s\S]*^ok {4}S3 bucket pf-deliveries /m)
    expect(good.stdout).toMatch(/^webhook-receiver:\nok {4}settings parse\n[\s\S]*^ok {4}Redis at /m)
    expect(good.stdout).toMatch(/^auth-exchange:\nok {4}settings parse\n[\s\S]*^ok {4}realm role pf-user /m)
    expect(good.stdout).not.toMatch(/^FAIL/m)
    expect(good.code).toBe(0)
    const bad = await run({ ...everyService, S3_DEFAULT_BUCKET: 'nope' })
    expect(bad.stdout).toMatch(/^FAIL {2}S3 bucket nope: /m)
    expect(bad.stdout).toMatch(/^ok {4}realm role pf-user /m)
    expect(bad.code).toBe(1)
  })

  const tenantClient = { clientId: 'pf-exchange', clientSecret: CLIENT_SECRET }
  const tenantDoctor = async (options: Auth0EmulatorOptions, env: Record<string, string> = {}) => {
    const auth0 = cleanup.add(await startAuth0Emulator({ clients: [tenantClient], ...options }), (a) =>
      a.stop(),
    )
    return doctor('auth-exchange', {
      ...exchangeBase(),
      IDP_STYLE: 'tenant',
      TENANT_DOMAIN: auth0.domain,
      TENANT_BASE_URL: auth0.url,
      TENANT_CLIENT_ID: 'pf-exchange',
      TENANT_CLIENT_SECRET: CLIENT_SECRET,
      ...env,
    })
  }
  // The scopes the README (Auth0 setup) asks for, plus the doctor's own reads.
  const grantedScopes = [
    'read:users',
    'create:users',
    'update:users',
    'read:roles',
    'create:role_members',
    'read:authentication_methods',
    'read:organizations',
    'read:device_credentials',
    'delete:device_credentials',
    'read:clients',
    'read:connections',
  ]

  it('auth exchange, Auth0 set up as the spec requires: password grant, connection, pf-user role and Management API scopes all ok, exit 0', async () => {
    const good = await tenantDoctor({ clients: [{ ...tenantClient, scopes: grantedScopes }] })
    expect(good.stdout).not.toMatch(/^FAIL/m)
    expect(good.stdout).toMatch(/^ok {4}identity provider \(tenant\) {2}answers at /m)
    expect(good.stdout).toMatch(/^ok {4}tenant password grant {2}enabled for pf-exchange$/m)
    expect(good.stdout).toMatch(
      /^ok {4}tenant connection Username-Password-Authentication {2}exists \(database\)$/m,
    )
    expect(good.stdout).toMatch(/^ok {4}tenant role pf-user {2}exists$/m)
    expect(good.stdout).toMatch(/^ok {4}Management API scopes {2}cover the exchange's calls$/m)
    expect(good.code).toBe(0)
  })

  it.each<[string, Auth0EmulatorOptions, RegExp]>([
    [
      'the password grant off',
      { clients: [{ ...tenantClient, grantTypes: ['authorization_code', 'client_credentials'] }] },
      /^FAIL {2}tenant password grant: application pf-exchange does not allow the password grant \(grant types: authorization_code, client_credentials\) \(fix: enable the Password grant/m,
    ],
    [
      'no such connection',
      { connections: ['Other-Database'] },
      /^FAIL {2}tenant connection Username-Password-Authentication: no such connection \(fix: create the database connection/m,
    ],
    [
      'a social connection of that name',
      { connections: [{ name: 'Username-Password-Authentication', database: false }] },
      /^FAIL {2}tenant connection Username-Password-Authentication: a google-oauth2 connection \(fix: use a database connection\)$/m,
    ],
    ['no pf-user role', { roles: [] }, /^FAIL {2}tenant role pf-user: the tenant has no role pf-user/m],
    [
      'scopes missing from the Management API grant',
      {
        clients: [
          {
            ...tenantClient,
            scopes: grantedScopes.filter(
              (s) => s !== 'create:role_members' && s !== 'delete:device_credentials',
            ),
          },
        ],
      },
      /^FAIL {2}Management API scopes: the grant lacks create:role_members, delete:device_credentials \(fix: authorize them/m,
    ],
  ])('auth exchange, Auth0 with %s: its one failed line, exit 1', async (_case, options, line) => {
    const bad = await tenantDoctor(options)
    expect(bad.stdout).toMatch(line)
    expect(bad.stdout.match(/^FAIL/gm)).toHaveLength(1)
    expect(bad.code).toBe(1)
  })

  it('auth exchange, Auth0 without read:clients: the password grant is reported not checked, not failed', async () => {
    const run = await tenantDoctor({
      clients: [{ ...tenantClient, scopes: grantedScopes.filter((s) => s !== 'read:clients') }],
    })
    expect(run.stdout).toMatch(/^ok {4}tenant password grant {2}not checked: the grant lacks read:clients/m)
    expect(run.code).toBe(0)
  })

  it('auth exchange, Auth0 with ACCOUNT_ADOPTION=never: the five sync scopes suffice; what session ends would need is said', async () => {
    const sync = ['read:users', 'create:users', 'update:users', 'read:roles', 'create:role_members']
    const run = await tenantDoctor(
      { clients: [{ ...tenantClient, scopes: [...sync, 'read:clients', 'read:connections'] }] },
      { ACCOUNT_ADOPTION: 'never' },
    )
    expect(run.stdout).toMatch(
      /^ok {4}Management API scopes {2}cover the exchange's calls; IDP_SESSION_END=on \(webhook worker\) would also need read:device_credentials, delete:device_credentials$/m,
    )
    expect(run.code).toBe(0)
  })
})
