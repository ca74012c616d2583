import { generateKeyPairSync } from 'node:crypto'
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

describe('EXCHANGE_GRANT and the assertion keys (issue 39): refused at start, never guessed', () => {
  const rsa = (bits = 2048) =>
    generateKeyPairSync('rsa', { modulusLength: bits })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString()
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })
  const K1 = rsa()
  const keys = { EXCHANGE_ASSERTION_ISSUER: 'https://exchange.example.com', EXCHANGE_SIGNING_KEY: K1 }

  it('jwt-bearer reads a PEM (line breaks as \\n too) and a JWK, and publishes both', () => {
    const config = loadExchangeConfig({
      ...realm(STRONG, STRONG),
      ...keys,
      EXCHANGE_GRANT: 'jwt-bearer',
      EXCHANGE_SIGNING_KEY: K1.replace(/\n/g, '\\n'),
      EXCHANGE_SIGNING_KEY_NEXT: JSON.stringify({ ...ec, kid: 'next-1' }),
    })
    expect(config.grant).toMatchObject({
      mode: 'jwt-bearer',
      providerAlias: 'pf-exchange',
      assertion: { lifetimeSec: 60, current: { alg: 'RS256' }, next: { alg: 'ES256', kid: 'next-1' } },
    })
  })

  it.each([
    [{ EXCHANGE_GRANT: 'jwt-bearer' }, /^EXCHANGE_SIGNING_KEY is required/],
    [{ EXCHANGE_GRANT: 'jwt-bearer', ...keys }, /^EXCHANGE_SIGNING_KEY_NEXT is required/],
    [
      { EXCHANGE_GRANT: 'jwt-bearer', ...keys, EXCHANGE_SIGNING_KEY_NEXT: 'not a key' },
      /^EXCHANGE_SIGNING_KEY_NEXT is not a private key/,
    ],
    [{ EXCHANGE_GRANT: 'jwt-bearer', ...keys, EXCHANGE_SIGNING_KEY_NEXT: K1 }, /must be another key/],
    [{ EXCHANGE_GRANT: 'jwt-bearer', ...keys, EXCHANGE_SIGNING_KEY_NEXT: rsa(1024) }, /2048 bits or more/],
    [
      {
        EXCHANGE_GRANT: 'jwt-bearer',
        ...keys,
        EXCHANGE_SIGNING_KEY_NEXT: rsa(),
        EXCHANGE_ASSERTION_LIFETIME_SECONDS: '301',
      },
      /<= 300/,
    ],
    [
      { EXCHANGE_GRANT: 'token-exchange' },
      /token-exchange is Auth0 Custom Token Exchange .* a realm .* uses EXCHANGE_GRANT=jwt-bearer/,
    ],
  ])('with a realm, %j is refused', (env, problem) => {
    expect(problemsOf({ ...realm(STRONG, STRONG), ...env })).toContainEqual(expect.stringMatching(problem))
  })

  it('with a tenant, token-exchange takes the keys (Auth0 Custom Token Exchange) and jwt-bearer is a realm mode', () => {
    expect(problemsOf({ ...tenant(STRONG), EXCHANGE_GRANT: 'token-exchange' })).toContainEqual(
      expect.stringMatching(/^EXCHANGE_SIGNING_KEY is required/),
    )
    const config = loadExchangeConfig({
      ...tenant(STRONG),
      ...keys,
      EXCHANGE_GRANT: 'token-exchange',
      EXCHANGE_SIGNING_KEY_NEXT: rsa(),
    })
    expect(config.grant).toMatchObject({
      mode: 'token-exchange',
      assertion: { issuer: keys.EXCHANGE_ASSERTION_ISSUER },
    })
    expect(
      problemsOf({
        ...tenant(STRONG),
        ...keys,
        EXCHANGE_GRANT: 'jwt-bearer',
        EXCHANGE_SIGNING_KEY_NEXT: rsa(),
      }),
    ).toEqual([expect.stringMatching(/jwt-bearer is Keycloak's JWT Authorization Grant/)])
  })
})
