import { generateKeyPairSync } from 'node:crypto'
import { join } from 'node:path'
import { startAuth0Emulator, type Auth0Emulator } from '@pf/testkit/emulators'
import {
  createAssertionSigner,
  createIdentityProvider,
  deriveTenantPassword,
  IdpInvalidGrantError,
  readIdentityProviderSettings,
  TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE,
  type IdentityProvider,
  type IdentityProviderOptions,
  type MarketplaceUser,
} from '@pf/idp-clients'

// Issue 39, `token-exchange`: the tenant style signs users in with Auth0's Custom Token Exchange, the repository's
// Action (services/auth-exchange/deploy/auth0) verifying the exchange's assertion in the emulator; no password is derived or
// sent, the account's password is random and kept by no one; the doctor's checks read the profile, the
// application and the connection.
const ACTION_FILE = join(
  __dirname,
  '../../../services/auth-exchange/deploy/auth0/custom-token-exchange-action.js',
)
const SECRET = 'a-long-enough-client-secret-1234'
const ISSUER = 'https://exchange.pf.example.com'
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const publicJwk = { ...key.publicKey.export({ format: 'jwk' }), kid: 'exchange-1', alg: 'ES256', use: 'sig' }
const signInGrant: IdentityProviderOptions['signInGrant'] = {
  type: 'token-exchange',
  assertion: {
    issuer: ISSUER,
    key: {
      kid: 'exchange-1',
      privateKey: key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    },
  },
}
const user: MarketplaceUser = {
  userId: 'cte user',
  orgId: 'org_1',
  applicationId: 'app_1',
  email: 'cte@example.com',
}

let auth0: Auth0Emulator
let env: Record<string, string>
let idp: IdentityProvider
beforeAll(async () => {
  auth0 = await startAuth0Emulator({
    clients: [
      {
        clientId: 'pf-exchange',
        clientSecret: SECRET,
        grantTypes: ['client_credentials', 'refresh_token'],
        tokenExchange: { allow_any_profile_of_type: ['custom_authentication'] },
        trustTokenEndpointIpHeader: true,
      },
      { clientId: 'pf-password', clientSecret: SECRET },
    ],
    searchLagMs: 0,
    actions: [
      {
        id: 'act_pf',
        name: 'pf-exchange',
        file: ACTION_FILE,
        secrets: {
          ISSUER,
          AUDIENCE: 'https://pf-test.eu.auth0.com/',
          PUBLIC_KEYS: JSON.stringify({ keys: [publicJwk] }),
        },
      },
    ],
    tokenExchangeProfiles: [
      { name: 'pf-exchange', subject_token_type: TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE, action_id: 'act_pf' },
    ],
  })
  env = {
    IDP_STYLE: 'tenant',
    TENANT_DOMAIN: auth0.domain,
    TENANT_BASE_URL: auth0.url,
    TENANT_CLIENT_ID: 'pf-exchange',
    TENANT_CLIENT_SECRET: SECRET,
    TENANT_AUDIENCE: 'https://api.pf.example.com',
    TENANT_CLAIM_NAMESPACE: auth0.namespace,
    TENANT_FORWARDED_FOR: 'true',
  }
  idp = createIdentityProvider(readIdentityProviderSettings(env).settings, { signInGrant, timeoutMs: 30_000 })
})
afterAll(() => auth0.stop())

const tokenRequests = (grant: string) =>
  auth0.requests.filter(
    (call) => call.path === '/oauth/token' && (call.body as { grant_type?: string }).grant_type === grant,
  )

describe('the tenant style with signInGrant token-exchange (Custom Token Exchange)', () => {
  it('syncs the user with a random password, signs in through the Action, and the first access token carries every claim', async () => {
    const synced = await idp.syncUser(user)
    expect(synced.created).toBe(true)
    const tokens = await idp.signIn(synced, user, { ip: '203.0.113.9' })
    expect(tokens.refresh_token).toEqual(expect.any(String))
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString())
    expect(payload.sub).toBe(synced.id)
    expect(idp.claimsOf(tokens.access_token)).toMatchObject({
      roles: ['pf-user'],
      orgId: 'org_1',
      pfUserId: 'cte user',
      pfApplicationId: 'app_1',
    })
    const [exchange] = tokenRequests('urn:ietf:params:oauth:grant-type:token-exchange')
    expect(exchange?.headers['auth0-forwarded-for']).toBe('203.0.113.9')
    expect(tokenRequests('http://auth0.com/oauth/grant-type/password-realm')).toEqual([])
    const account = auth0.users.get(synced.id)
    expect(account?.password).not.toBe(deriveTenantPassword(user.userId, SECRET))
  })

  it('signs a fresh assertion for each exchange (iss, sub, aud, auth0_user_id, at most 5 minutes)', async () => {
    const synced = await idp.syncUser(user)
    const before = auth0.users.get(synced.id)?.password
    await idp.grant(synced, user)
    expect(auth0.users.get(synced.id)?.password).toBe(before) // a known account's password is left alone
    const assertions = tokenRequests('urn:ietf:params:oauth:grant-type:token-exchange').map((call) => {
      const token = (call.body as { subject_token: string }).subject_token
      return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
        string,
        number
      >
    })
    expect(new Set(assertions.map((a) => a.jti)).size).toBe(assertions.length)
    for (const claims of assertions) {
      expect(claims).toMatchObject({
        iss: ISSUER,
        sub: 'cte user',
        aud: 'https://pf-test.eu.auth0.com/',
        auth0_user_id: synced.id,
      })
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBeLessThanOrEqual(300)
    }
  })

  it('an account the password mode made (its derived password marked) gets a random one and loses the mark at its next sync', async () => {
    const moved = { ...user, userId: 'moved user', email: 'moved@example.com' }
    const passwordMode = createIdentityProvider(readIdentityProviderSettings(env).settings)
    const made = await passwordMode.syncUser(moved)
    const derived = deriveTenantPassword(moved.userId, SECRET)
    expect(auth0.users.get(made.id)).toMatchObject({
      password: derived,
      app_metadata: { pfPasswordSetBy: 'exchange' },
    })
    await idp.syncUser(moved)
    const account = auth0.users.get(made.id)
    expect(account?.password).not.toBe(derived)
    expect(account?.app_metadata).not.toHaveProperty('pfPasswordSetBy')
    // One made by this mode was never marked: its random password is nobody's.
    const own = [...auth0.users.values()].find((u) => u.app_metadata.pfUserId === user.userId)
    expect(own?.app_metadata).not.toHaveProperty('pfPasswordSetBy')
  })

  it('removeMarkedPasswords: every marked account of the connection gets a random password and loses the mark; unmarked ones are left', async () => {
    const passwordMode = createIdentityProvider(readIdentityProviderSettings(env).settings)
    const bulk = ['bulk 1', 'bulk 2'].map((userId) => ({
      ...user,
      userId,
      email: `${userId.replace(' ', '')}@example.com`,
    }))
    const made = await Promise.all(bulk.map((one) => passwordMode.syncUser(one)))
    const unmarked = await idp.syncUser({ ...user, userId: 'bulk 3', email: 'bulk3@example.com' })
    const before = auth0.users.get(unmarked.id)?.password
    const removed = await idp.removeMarkedPasswords!()
    expect(removed.accounts).toBeGreaterThanOrEqual(2)
    made.forEach((account, i) => {
      const stored = auth0.users.get(account.id)
      expect(stored?.password).not.toBe(deriveTenantPassword(bulk[i]!.userId, SECRET))
      expect(stored?.app_metadata).not.toHaveProperty('pfPasswordSetBy')
    })
    expect(auth0.users.get(unmarked.id)?.password).toBe(before)
    await expect(idp.removeMarkedPasswords!()).resolves.toEqual({ accounts: 0, passwords: 0 })
  })

  it('on the warm path, an account gone behind its back is IdpInvalidGrantError (sync again)', async () => {
    const synced = await idp.syncUser({ ...user, userId: 'gone', email: 'gone@example.com' })
    auth0.users.delete(synced.id)
    await expect(idp.grant(synced, { ...user, userId: 'gone' })).rejects.toBeInstanceOf(IdpInvalidGrantError)
  })

  it("the doctor's checks: profile, application (first-party, OIDC-conformant, custom profiles, no password grant), connection", async () => {
    const findings = await Promise.all(idp.setupChecks().map(async (c) => [c.name, (await c.run()).ok]))
    expect(findings).toEqual(
      expect.arrayContaining([
        ['tenant token exchange profile', true],
        ['tenant application for token exchange', true],
        ['tenant connection Username-Password-Authentication', true],
      ]),
    )
    const other = createIdentityProvider(
      readIdentityProviderSettings({ ...env, TENANT_CLIENT_ID: 'pf-password' }).settings,
      { signInGrant: { ...signInGrant, subjectTokenType: 'urn:pf:not-registered' } },
    )
    const problems = await Promise.all(other.setupChecks().map(async (c) => [c.name, await c.run()]))
    expect(Object.fromEntries(problems)).toMatchObject({
      'tenant token exchange profile': {
        ok: false,
        problem: expect.stringContaining('urn:pf:not-registered'),
      },
      'tenant application for token exchange': {
        ok: false,
        problem: expect.stringContaining('may not use custom token exchange profiles'),
      },
    })
  })

  it('is refused by the realm style, and an assertion may not live beyond 300 s', () => {
    const realm = readIdentityProviderSettings({
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: 'http://127.0.0.1:1',
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: SECRET,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'admin',
    }).settings
    expect(() => createIdentityProvider(realm, { signInGrant })).toThrow(/realm style has no token-exchange/)
    expect(() =>
      createAssertionSigner({
        issuer: ISSUER,
        key: { kid: 'k', privateKey: key.privateKey },
        lifetimeSeconds: 301,
      }),
    ).toThrow(TypeError)
  })
})
