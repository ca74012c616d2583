import type { ConfigError } from '@pf/service-kit'
import { loadExchangeConfig } from '../src/config'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadExchangeConfig(env)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}
const realm = (secret: string, adminPassword: string) => ({
  IDP_STYLE: 'realm',
  PF_APPLICATION_ID: 'app_1',
  MARKETPLACE_JWKS_URL: 'https://pf.example.com/.well-known/jwks.json',
  MARKETPLACE_ISSUER: 'https://pf.example.com',
  REALM_SERVER_URL: 'https://id.example.com',
  REALM_NAME: 'pf',
  REALM_CLIENT_ID: 'pf-exchange',
  REALM_CLIENT_SECRET: secret,
  REALM_ADMIN_USER: 'pf-admin',
  REALM_ADMIN_PASSWORD: adminPassword,
})
const tenant = (secret: string) => ({
  IDP_STYLE: 'tenant',
  PF_APPLICATION_ID: 'app_1',
  MARKETPLACE_JWKS_URL: 'https://pf.example.com/.well-known/jwks.json',
  MARKETPLACE_ISSUER: 'https://pf.example.com',
  TENANT_DOMAIN: 'acme.eu.auth0.com',
  TENANT_CLIENT_ID: 'abc',
  TENANT_CLIENT_SECRET: secret,
})
const STRONG = 'Zx9'.repeat(12)

describe('exchange configuration in production (NODE_ENV=production)', () => {
  it('refuses a client secret under 32 bytes: it keys every derived password', () => {
    expect(problemsOf({ ...realm('s3cret', STRONG), NODE_ENV: 'production' })).toEqual([
      'REALM_CLIENT_SECRET must be at least 32 bytes when NODE_ENV=production (got 6)',
    ])
    expect(problemsOf({ ...tenant('change-me'), NODE_ENV: 'production' })).toEqual([
      'TENANT_CLIENT_SECRET holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
    expect(problemsOf({ ...tenant(STRONG), NODE_ENV: 'production' })).toEqual([])
  })

  it('refuses a placeholder admin password', () => {
    expect(problemsOf({ ...realm(STRONG, 'admin'), NODE_ENV: 'production' })).toEqual([
      'REALM_ADMIN_PASSWORD holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
  })

  it('accepts them outside production (the sandbox, tests), and reads the shared server limits', () => {
    const config = loadExchangeConfig({ ...realm('s3cret', 'admin'), SHUTDOWN_DRAIN_MS: '4000' })
    expect(config.server.drainTimeoutMs).toBe(4000)
  })
})

describe('exchange settings added in the third wave (service contract)', () => {
  it('ACCOUNT_ADOPTION: verified (default), unlinked read as verified, never', () => {
    const adoption = (value?: string) =>
      loadExchangeConfig({ ...realm(STRONG, STRONG), ...(value ? { ACCOUNT_ADOPTION: value } : {}) }).adoption
    expect([adoption(), adoption('verified'), adoption('unlinked'), adoption('never')]).toEqual([
      'verified',
      'verified',
      'verified',
      'never',
    ])
  })

  it('MARKETPLACE_MAX_TOKEN_AGE_SECONDS accepts off (no limit on iat), else a positive integer', () => {
    const age = (value: string) =>
      loadExchangeConfig({ ...realm(STRONG, STRONG), MARKETPLACE_MAX_TOKEN_AGE_SECONDS: value }).marketplace
        .maxTokenAgeSec
    expect([age('off'), age('OFF'), age('60')]).toEqual([undefined, undefined, 60])
    expect(problemsOf({ ...realm(STRONG, STRONG), MARKETPLACE_MAX_TOKEN_AGE_SECONDS: '0' })).toHaveLength(1)
  })
})

describe('exchange settings added in the second wave (service contract)', () => {
  it('defaults: adoption of verified holders, 3600 s token age, 8000 ms deadline, master-realm admin, no forwarded IP', () => {
    const config = loadExchangeConfig(realm(STRONG, STRONG))
    expect(config).toMatchObject({
      adoption: 'verified',
      deadlineMs: 8000,
      marketplace: { maxTokenAgeSec: 3600, jwksCooldownMs: 30_000 },
      idp: { realm: { adminAuth: 'password', adminUser: 'pf-admin' } },
    })
    expect(loadExchangeConfig(tenant(STRONG)).idp).toMatchObject({ tenant: { forwardedFor: false } })
  })

  it('REALM_ADMIN_AUTH=client_credentials needs no admin user; password does', () => {
    const {
      REALM_ADMIN_USER: _user,
      REALM_ADMIN_PASSWORD: _password,
      ...withoutAdmin
    } = realm(STRONG, STRONG)
    expect(problemsOf({ ...withoutAdmin, REALM_ADMIN_AUTH: 'client_credentials' })).toEqual([])
    expect(problemsOf(withoutAdmin)).toEqual(
      expect.arrayContaining([expect.stringMatching(/REALM_ADMIN_USER/)]),
    )
  })

  it('refuses unknown values with one readable line each', () => {
    expect(
      problemsOf({
        ...tenant(STRONG),
        ACCOUNT_ADOPTION: 'always',
        EXCHANGE_DEADLINE_MS: '0',
        TENANT_FORWARDED_FOR: 'maybe',
        MARKETPLACE_MAX_TOKEN_AGE_SECONDS: 'x',
      }),
    ).toHaveLength(4)
  })
})
