import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator } from '@pf/testkit/emulators'
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
      clients: [{ clientId: 'pf-exchange', secret: 'a-long-enough-client-secret-1234' }],
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
  it('provider: all ok, exit 0; a missing bucket and the demo key are one failed line each, exit 1', async () => {
    const good = await doctor('provider', providerEnv())
    expect(good.code).toBe(0)
    expect(good.stdout).toMatch(
      /^ok {4}settings parse\nok {4}secrets are not placeholders\nok {4}S3 bucket pf-deliveries {2}exists/,
    )
    const bad = await doctor('provider', {
      ...providerEnv(),
      PF_API_KEY: 'pf-demo-api-key',
      S3_DEFAULT_BUCKET: 'nope',
    })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toMatch(
      /^FAIL {2}secrets are not placeholders: PF_API_KEY must be set to your own secret/m,
    )
    expect(bad.stdout).toMatch(/^FAIL {2}S3 bucket nope: .*\(fix: create the bucket/m)
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

  it('auth exchange: each missing setting is a failed line; with them, the JWKS and the identity provider answer', async () => {
    const missing = await doctor('auth-exchange', {})
    expect(missing.code).toBe(1)
    expect(missing.stdout).toMatch(/^FAIL {2}settings: MARKETPLACE_JWKS_URL is required$/m)
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
})
