import { startAuth0Emulator, type Auth0Emulator } from '@pf/testkit/emulators'
import {
  createTenantClient,
  createTokenVerifier,
  deriveTenantPassword,
  IdpRateLimitedError,
  IdpRejectedError,
  normalizeTenantClaims,
  type MarketplaceUser,
} from '@pf/idp-clients'
// Internals, tested directly: not part of the package's public API.
import { exactTerm } from '../src/tenant/lucene'
import { retryDelay } from '../src/lib/retry-delay'

const CLIENT = { clientId: 'pf-exchange', clientSecret: 'pf-exchange-secret' }
const AUDIENCE = 'https://api.pf.example.com'
const user = (id: string, extra: Partial<MarketplaceUser> = {}): MarketplaceUser => ({
  userId: id,
  orgId: 'org_1',
  applicationId: 'app_1',
  email: `${id.replace(/[^a-z0-9]/gi, '')}@example.com`,
  ...extra,
})
const password = (id: string) => deriveTenantPassword(id, CLIENT.clientSecret)

let auth0: Auth0Emulator
const delays: number[] = []
const clientFor = (extra: Partial<Parameters<typeof createTenantClient>[0]> = {}) =>
  createTenantClient({
    domain: auth0.domain,
    baseUrl: auth0.url,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    audience: AUDIENCE,
    // A hang guard, not a budget: 200 concurrent calls queue up on a loaded 2-core machine.
    timeoutMs: 60_000,
    sleep: async (ms) => void delays.push(ms),
    ...extra,
  })

beforeEach(async () => {
  delays.length = 0
  auth0 = await startAuth0Emulator({ clients: [CLIENT] })
})
afterEach(() => auth0.stop())

describe('tenant client against the Auth0 emulator', () => {
  it('creates a new user in the connection with app_metadata and the pf-user role, then signs it in', async () => {
    const tenant = clientFor()
    const synced = await tenant.syncUser(user('t1'), password('t1'))
    expect(synced).toMatchObject({ username: 't1@example.com', created: true, adopted: false })
    const stored = auth0.users.get(synced.id)!
    expect(stored).toMatchObject({ connection: 'Username-Password-Authentication', email_verified: true })
    // The derived password it was created with is marked as the exchange's (issue 39).
    expect(stored.app_metadata).toEqual({
      pfUserId: 't1',
      orgId: 'org_1',
      pfApplicationId: 'app_1',
      pfPasswordSetBy: 'exchange',
    })
    expect([...stored.roles]).toEqual(['rol_pfUser0000001'])

    const tokens = await tenant.passwordGrant(synced.username, password('t1'))
    expect(tokens).toMatchObject({ refresh_token: expect.any(String), id_token: expect.any(String) })
    const verify = createTokenVerifier({ jwksUri: tenant.jwksUri, issuer: tenant.issuer, audience: AUDIENCE })
    const claims = normalizeTenantClaims(await verify(tokens.access_token), auth0.namespace)
    expect(claims).toMatchObject({
      roles: ['pf-user'],
      orgId: 'org_1',
      pfUserId: 't1',
      pfApplicationId: 'app_1',
    })
  })

  it('asks for scope "openid profile email offline_access", and sends an audience only when configured', async () => {
    const tenant = clientFor({ audience: undefined })
    const synced = await tenant.syncUser(user('t2'), password('t2'))
    await tenant.passwordGrant(synced.username, password('t2'))
    const grant = auth0.requests.find(
      (r) =>
        r.path === '/oauth/token' && (r.body as { grant_type?: string }).grant_type !== 'client_credentials',
    )
    // password-realm with the connection, as the vendor SDKs send it (plain `password` knows only the default directory).
    expect(grant?.body).toMatchObject({
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      realm: 'Username-Password-Authentication',
      scope: 'openid profile email offline_access',
    })
    expect(grant?.body).not.toHaveProperty('audience')
  })

  it('finds a returning user through users-by-email (immediately consistent), patching app_metadata only when it changed', async () => {
    const tenant = clientFor()
    const { id } = await tenant.syncUser(user('t3'), password('t3'))
    auth0.users.get(id)!.app_metadata.plan = 'gold'
    await tenant.syncUser(user('t3'), password('t3'))
    expect(auth0.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0)
    await tenant.syncUser(user('t3', { orgId: 'org_2' }), password('t3'))
    expect(auth0.users.get(id)!.app_metadata).toEqual({
      pfUserId: 't3',
      orgId: 'org_2',
      pfApplicationId: 'app_1',
      pfPasswordSetBy: 'exchange',
      plan: 'gold',
    })
    const lookup = auth0.requests.find((r) => r.path === '/api/v2/users-by-email')
    expect(lookup?.query).toEqual({ email: 't3@example.com' })
  })

  it('adopts the user already holding the email (409): metadata and derived password set, role assigned', async () => {
    const other = auth0.seedUser({
      email: 't4@example.com',
      password: 'Old-password-1',
      email_verified: true,
    })
    const tenant = clientFor()
    const synced = await tenant.syncUser(user('t4'), password('t4'))
    expect(synced).toMatchObject({ id: other.user_id, created: false, adopted: true })
    expect(other.app_metadata.pfUserId).toBe('t4')
    await expect(tenant.passwordGrant('t4@example.com', password('t4'))).resolves.toBeDefined()
    expect(auth0.users.size).toBe(1)
  })

  it('escapes the Lucene query: a user id with quotes and colons cannot change it', async () => {
    const tenant = clientFor()
    auth0.seedUser({
      email: 'victim@example.com',
      password: 'Pass-word-1',
      app_metadata: { pfUserId: 'victim' },
    })
    const tricky = 'x" OR app_metadata.pfUserId:"victim'
    const synced = await tenant.syncUser(user(tricky, { email: 'tricky@example.com' }), password(tricky))
    expect(synced.created).toBe(true)
    expect(auth0.users.get(synced.id)!.app_metadata.pfUserId).toBe(tricky)
    expect(exactTerm('app_metadata.pfUserId', 'a\\"b')).toBe('app_metadata.pfUserId:"a\\\\\\"b"')
  })

  it('skips the role silently when the tenant has no pf-user role', async () => {
    await auth0.stop()
    auth0 = await startAuth0Emulator({ clients: [CLIENT], roles: [{ id: 'rol_x', name: 'pf-user-admin' }] })
    const synced = await clientFor().syncUser(user('t5'), password('t5'))
    expect(auth0.users.get(synced.id)!.roles.size).toBe(0)
  })

  it('fails user creation on a wrong connection name (it must match exactly)', async () => {
    const error = await clientFor({ connection: 'username-password-authentication' })
      .syncUser(user('t6'), password('t6'))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdpRejectedError)
    expect((error as IdpRejectedError).body).toMatchObject({ errorCode: 'inexistent_connection' })
  })

  it('shares one management token among 200 concurrent callers', async () => {
    const tenant = clientFor()
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => tenant.syncUser(user(`m${i}`), password(`m${i}`))),
    )
    expect(auth0.managementTokensIssued()).toBe(1)
    expect(auth0.users.size).toBe(200)
  })

  it('rides out a 429 storm with bounded retries honouring x-ratelimit-reset, then gives up', async () => {
    const tenant = clientFor()
    auth0.rateLimit(2)
    await expect(tenant.syncUser(user('t7'), password('t7'))).resolves.toMatchObject({ created: true })
    expect(delays).toHaveLength(2)
    auth0.rateLimit(50)
    await expect(tenant.syncUser(user('t8'), password('t8'))).rejects.toBeInstanceOf(IdpRateLimitedError)
    expect(delays).toHaveLength(2 + 2) // the vendor SDK's 2 retries per call
    auth0.clearFaults()
  })

  it.each([
    ['with the per-user endpoints (Enterprise plans)', true],
    ['through device-credentials where the plan lacks them', false],
  ])(
    'endSessions(id) revokes every refresh token of a user %s; a new password had not',
    async (_name, plan) => {
      await auth0.stop()
      auth0 = await startAuth0Emulator({ clients: [CLIENT], sessionEndpoints: plan })
      const tenant = clientFor()
      const synced = await tenant.syncUser(user('t10'), password('t10'))
      await tenant.passwordGrant(synced.username, password('t10'))
      await tenant.passwordGrant(synced.username, password('t10'))
      auth0.startSession(synced.id)
      await tenant.signIn({ ...synced, created: false }, password('t10')) // the same password: nothing ends
      expect(auth0.refreshTokensOf(synced.id)).toHaveLength(3)
      await tenant.endSessions(synced.id)
      expect(auth0.refreshTokensOf(synced.id)).toHaveLength(0)
      expect(auth0.sessionsOf(synced.id)).toHaveLength(plan ? 0 : 1)
    },
  )

  it('revokes a refresh token', async () => {
    const tenant = clientFor()
    const synced = await tenant.syncUser(user('t9'), password('t9'))
    const tokens = await tenant.passwordGrant(synced.username, password('t9'))
    await tenant.logout(tokens.refresh_token!)
    expect(auth0.requests.at(-1)).toMatchObject({
      path: '/oauth/revoke',
      body: { token: tokens.refresh_token },
    })
  })

  it('the emulator refuses app_metadata queries on the legacy search engine, as the real one does', async () => {
    const { access_token: token } = (await (
      await fetch(`${auth0.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: CLIENT.clientId,
          client_secret: CLIENT.clientSecret,
          audience: `https://${auth0.domain}/api/v2/`,
        }),
      })
    ).json()) as { access_token: string }
    const res = await fetch(
      `${auth0.url}/api/v2/users?q=${encodeURIComponent('app_metadata.pfUserId:"1"')}`,
      { headers: { authorization: `Bearer ${token}` } },
    )
    expect(res.status).toBe(400)
  })
})

describe('retryDelay', () => {
  const limits = { baseDelayMs: 100, maxDelayMs: 4000, now: 1_000_000, random: () => 0.5 }
  it('honours Retry-After, then x-ratelimit-reset, else backs off exponentially with jitter, capped', () => {
    expect(retryDelay(0, { 'retry-after': '2' }, limits)).toBe(2000)
    expect(retryDelay(0, { 'x-ratelimit-reset': String(1_000_000 / 1000 + 3) }, limits)).toBe(3000)
    expect(retryDelay(3, {}, limits)).toBe(0.5 * 100 * 8)
    expect(retryDelay(20, {}, limits)).toBe(4000)
  })
})

describe('normalizeTenantClaims', () => {
  it('reads missing roles as [] and other missing claims as null', () => {
    expect(normalizeTenantClaims({ sub: 's' }, 'https://pf.example.com/')).toEqual({
      subject: 's',
      username: null,
      email: null,
      roles: [],
      orgId: null,
      pfUserId: null,
      pfApplicationId: null,
      sessionId: null,
    })
  })

  it('refuses a namespace that is not a URL ending with "/" (custom claims would be dropped)', () => {
    expect(() => normalizeTenantClaims({}, 'pf')).toThrow(TypeError)
    expect(() => normalizeTenantClaims({}, 'https://pf.example.com')).toThrow(TypeError)
  })
})
