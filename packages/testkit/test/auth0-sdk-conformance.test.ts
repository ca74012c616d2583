import { generateKeyPairSync, randomUUID, sign } from 'node:crypto'
import { join } from 'node:path'
import { ManagementClient } from 'auth0'
import { AuthenticationClient } from 'auth0/legacy'
import { startAuth0Emulator, type Auth0Emulator } from '../src/emulators'

// The emulator must answer Auth0's own SDK (`auth0`: the v7 ManagementClient, and the v4 AuthenticationClient it
// ships as `auth0/legacy`) as the real tenant does. With LIVE_AUTH0_DOMAIN, LIVE_AUTH0_CLIENT_ID and
// LIVE_AUTH0_CLIENT_SECRET set, the same checks run against that tenant too.
const CLIENT = { clientId: 'pf-exchange', clientSecret: 'pf-exchange-secret' }
const CONNECTION = 'pf-db'
// Custom Token Exchange (issue 39): the repository's Action, its key and the claims it checks. Against a live tenant
// the profile tests need LIVE_AUTH0_CTE_ACTION_ID (that Action deployed with these secrets: see its README).
const CTE_ACTION_FILE = join(
  __dirname,
  '../../../services/auth-exchange/deploy/auth0/custom-token-exchange-action.js',
)
const CTE_ISSUER = 'https://exchange.pf.example.com'
const cteKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const cteJwk = { ...cteKey.publicKey.export({ format: 'jwk' }), kid: 'sdk-1', alg: 'ES256', use: 'sig' }
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
/** The exchange's assertion for tenant user `userId` (what @pf/idp-clients signs, here by hand). */
function cteAssertion(domain: string, userId: string): string {
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    iss: CTE_ISSUER,
    sub: 'sdk-1',
    aud: `https://${domain}/`,
    iat: now,
    exp: now + 60,
    jti: randomUUID(),
    auth0_user_id: userId,
  }
  const signed = `${b64({ alg: 'ES256', typ: 'JWT', kid: 'sdk-1' })}.${b64(claims)}`
  return `${signed}.${sign('sha256', Buffer.from(signed), { key: cteKey.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

interface Target {
  domain: string
  clientId: string
  clientSecret: string
  connection: string
  /** The deployed Custom Token Exchange Action (the repository's, with `cteJwk` among its keys), if any. */
  cteActionId?: string
  /** Plain HTTP to the emulator for requests the SDK sends to https://{domain}. */
  fetch?: typeof fetch
  stop: () => Promise<void>
}

const redirect =
  (emulator: Auth0Emulator): typeof fetch =>
  (input, init) =>
    fetch(
      String(input instanceof Request ? input.url : input).replace(
        `https://${emulator.domain}`,
        emulator.url,
      ),
      init,
    )

const live = process.env.LIVE_AUTH0_DOMAIN
const targets: [string, () => Promise<Target>][] = [
  [
    'the Auth0 emulator',
    async () => {
      const emulator = await startAuth0Emulator({
        clients: [CLIENT],
        connections: ['Username-Password-Authentication', CONNECTION],
        searchLagMs: 60_000,
        actions: [
          {
            id: 'act_sdk',
            name: 'pf-exchange',
            file: CTE_ACTION_FILE,
            secrets: {
              ISSUER: CTE_ISSUER,
              AUDIENCE: 'https://pf-test.eu.auth0.com/',
              PUBLIC_KEYS: JSON.stringify({ keys: [cteJwk] }),
            },
          },
        ],
      })
      return {
        domain: emulator.domain,
        ...CLIENT,
        connection: CONNECTION,
        cteActionId: 'act_sdk',
        fetch: redirect(emulator),
        stop: () => emulator.stop(),
      }
    },
  ],
  ...(live
    ? [
        [
          `the live tenant ${live}`,
          async () => ({
            domain: live,
            clientId: process.env.LIVE_AUTH0_CLIENT_ID ?? '',
            clientSecret: process.env.LIVE_AUTH0_CLIENT_SECRET ?? '',
            connection: process.env.LIVE_AUTH0_CONNECTION ?? 'Username-Password-Authentication',
            cteActionId: process.env.LIVE_AUTH0_CTE_ACTION_ID,
            stop: async () => {},
          }),
        ] as [string, () => Promise<Target>],
      ]
    : []),
]

describe.each(targets)("Auth0's own SDK against %s", (_name, start) => {
  let target: Target
  let management: ManagementClient
  let auth: AuthenticationClient
  const email = `sdk-${Math.random().toString(36).slice(2, 8)}@example.com`
  let userId = ''
  beforeAll(async () => {
    target = await start()
    const options = {
      domain: target.domain,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      ...(target.fetch ? { fetch: target.fetch } : {}),
    }
    management = new ManagementClient(options)
    auth = new AuthenticationClient(options)
  })
  afterAll(async () => {
    if (userId) await management.users.delete(userId).catch(() => {})
    await target.stop()
  })

  it('creates a user in a named database connection, with app_metadata', async () => {
    const created = await management.users.create({
      connection: target.connection,
      email,
      password: 'Sdk-password-1!',
      email_verified: true,
      app_metadata: { pfUserId: 'sdk-1' },
    })
    userId = created.user_id ?? ''
    expect(userId).toMatch(/\|/)
    expect(created.identities?.[0]?.connection).toBe(target.connection)
  })

  it('finds it at once by email and by id, every connection listed', async () => {
    const byEmail = await management.users.listUsersByEmail({ email: email.toUpperCase() })
    expect(byEmail.map((u) => u.user_id)).toEqual([userId])
    expect((await management.users.get(userId)).app_metadata).toEqual({ pfUserId: 'sdk-1' })
  })

  it('pages the (eventually consistent) search with totals', async () => {
    const page = await management.users.list({
      q: `email:"${email}"`,
      search_engine: 'v3',
      per_page: 10,
      include_totals: true,
    })
    expect(Array.isArray(page.data)).toBe(true)
  })

  it('refuses a second user with the same email in the same connection (409)', async () => {
    const error = await management.users
      .create({ connection: target.connection, email, password: 'Sdk-password-1!' })
      .catch((e: unknown) => e as { statusCode?: number })
    expect(error).toMatchObject({ statusCode: 409 })
  })

  it('merges app_metadata on update and sets a password with the connection named', async () => {
    await management.users.update(userId, { app_metadata: { orgId: 'o1' } })
    await management.users.update(userId, { password: 'Sdk-password-2!', connection: target.connection })
    expect((await management.users.get(userId)).app_metadata).toEqual({ pfUserId: 'sdk-1', orgId: 'o1' })
  })

  it('signs in with password-realm against the connection, refreshes and revokes', async () => {
    const { data } = await auth.oauth.passwordGrant({
      username: email,
      password: 'Sdk-password-2!',
      realm: target.connection,
      scope: 'offline_access',
    })
    expect(data.access_token).toEqual(expect.any(String))
    const refreshed = await auth.oauth.refreshTokenGrant({ refresh_token: data.refresh_token ?? '' })
    expect(refreshed.data.access_token).toEqual(expect.any(String))
    await auth.oauth.revokeRefreshToken({ token: data.refresh_token ?? '' })
  })

  it('lists what adoption reads: authentication methods (a password at most), organizations, roles, permissions', async () => {
    const methods = await management.users.authenticationMethods.list(userId)
    expect(methods.data.map((m) => m.type).filter((type) => type !== 'password')).toEqual([])
    expect((await management.users.organizations.list(userId)).data).toEqual([])
    expect((await management.users.roles.list(userId)).data).toEqual([])
    expect((await management.users.permissions.list(userId)).data).toEqual([])
  })

  it("describes the set-up a doctor checks: the application's grant types (password on) and the database connection by name", async () => {
    const application = await management.clients.get(target.clientId, { fields: 'grant_types' })
    expect(application.grant_types).toContain('password')
    expect(application).not.toHaveProperty('client_secret') // only the fields asked for
    const connections = await management.connections.list({ name: target.connection })
    expect(connections.data.map((c) => [c.name, c.strategy])).toEqual([[target.connection, 'auth0']])
  })

  // Refresh tokens survive a new password; they end per user (Enterprise plans) or one by one (every plan).
  const refreshWith = (token: string) =>
    auth.oauth.refreshTokenGrant({ refresh_token: token }).then(
      () => 'refreshed',
      (error: { statusCode?: number }) => error.statusCode,
    )
  const signIn = async () =>
    (
      await auth.oauth.passwordGrant({
        username: email,
        password: 'Sdk-password-3!',
        realm: target.connection,
        scope: 'offline_access',
      })
    ).data.refresh_token ?? ''

  it('keeps refresh tokens across a new password; revokes them through device-credentials', async () => {
    await management.users.update(userId, { password: 'Sdk-password-3!', connection: target.connection })
    const token = await signIn()
    await management.users.update(userId, { password: 'Sdk-password-3!', connection: target.connection })
    expect(await refreshWith(token)).toBe('refreshed')
    const credentials = await management.deviceCredentials.list({ user_id: userId, type: 'refresh_token' })
    expect(credentials.data.length).toBeGreaterThan(0)
    for (const credential of credentials.data) await management.deviceCredentials.delete(credential.id ?? '')
    expect(await refreshWith(token)).toBe(403)
  })

  it('deletes every session and refresh token of a user where the plan has the endpoints', async () => {
    const token = await signIn()
    const outcome = (call: Promise<unknown>) =>
      call.then(
        () => 'deleted',
        (error: unknown) => (error as { statusCode?: number }).statusCode,
      )
    const ended = await Promise.all([
      outcome(management.users.sessions.delete(userId)),
      outcome(management.users.refreshToken.delete(userId)),
    ])
    if (ended.includes(403)) return // a tenant without the Enterprise plan's endpoints
    expect(ended).toEqual(['deleted', 'deleted'])
    expect((await management.users.sessions.list(userId)).data).toEqual([])
    expect(await refreshWith(token)).toBe(403)
  })

  // Issue 27: the refresh tokens issued before a marketplace session's end go, later ones stay; the user's
  // last_login (set by the password grant) tells whether any can be later where only device-credentials exist.
  it("lists a user's refresh tokens with their issue time and deletes one by id where the plan has the endpoints", async () => {
    const before = await signIn()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const after = await signIn()
    expect(Date.parse((await management.users.get(userId)).last_login as string)).toBeGreaterThan(0)
    const listed = await management.users.refreshToken.list(userId, { take: 1 }).then(
      (page) => page,
      (error: { statusCode?: number }) => error.statusCode,
    )
    if (listed === 403) return // a tenant without the Enterprise plan's endpoints
    const tokens = []
    for await (const token of listed as AsyncIterable<{ id?: string; created_at?: unknown }>)
      tokens.push(token)
    expect(tokens.length).toBeGreaterThanOrEqual(2)
    const oldest = tokens.reduce((a, b) => (String(a.created_at) <= String(b.created_at) ? a : b))
    await management.refreshTokens.delete(oldest.id ?? '')
    expect(await refreshWith(before)).toBe(403)
    expect(await refreshWith(after)).toBe('refreshed')
    const again = await management.refreshTokens.delete(oldest.id ?? '').then(
      () => 'deleted',
      (error: unknown) => (error as { statusCode?: number }).statusCode,
    )
    expect(again).toBe(404)
  })
  // Custom Token Exchange (Early Access): the profiles API with its reserved namespaces, the application's
  // token_exchange setting, and the v4 AuthenticationClient's tokenExchange.exchangeToken running the Action.
  const profileType = `urn:pf:sdk-${Math.random().toString(36).slice(2, 8)}`
  let profileId = ''
  const statusOf = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { statusCode?: number }) => error.statusCode,
    )

  it('creates a token exchange profile, refusing reserved namespaces and a second profile for one subject_token_type', async () => {
    if (!target.cteActionId) return // a live tenant without the Action deployed
    const profile = { name: 'pf-sdk', action_id: target.cteActionId, type: 'custom_authentication' as const }
    for (const reserved of [
      'urn:ietf:params:oauth:token-type:jwt',
      'urn:auth0:x',
      'https://auth0.com/x',
      'urn:okta:x',
    ])
      expect(
        await statusOf(management.tokenExchangeProfiles.create({ ...profile, subject_token_type: reserved })),
      ).toBe(400)
    const created = await management.tokenExchangeProfiles.create({
      ...profile,
      subject_token_type: profileType,
    })
    profileId = created.id ?? ''
    expect(created).toMatchObject({
      id: expect.stringMatching(/^tep_/),
      type: 'custom_authentication',
      subject_token_type: profileType,
    })
    expect(
      await statusOf(
        management.tokenExchangeProfiles.create({ ...profile, subject_token_type: profileType }),
      ),
    ).toBe(409)
  })

  it('lists, gets, renames and deletes token exchange profiles', async () => {
    if (!target.cteActionId) return
    const listed = []
    for await (const profile of await management.tokenExchangeProfiles.list({ take: 50 }))
      listed.push(profile)
    expect(listed.map((p) => p.id)).toContain(profileId)
    await management.tokenExchangeProfiles.update(profileId, { name: 'pf-sdk-renamed' })
    expect((await management.tokenExchangeProfiles.get(profileId)).name).toBe('pf-sdk-renamed')
  })

  it('allows the application custom profiles (token_exchange.allow_any_profile_of_type) and reads it back', async () => {
    if (!target.cteActionId) return
    await management.clients.update(target.clientId, {
      token_exchange: { allow_any_profile_of_type: ['custom_authentication'] },
    })
    const application = await management.clients.get(target.clientId, {
      fields: 'token_exchange,is_first_party,oidc_conformant',
    })
    expect(application).toMatchObject({
      is_first_party: true,
      oidc_conformant: true,
      token_exchange: { allow_any_profile_of_type: ['custom_authentication'] },
    })
  })

  it('exchanges an assertion for tokens with tokenExchange.exchangeToken; a forged one is refused', async () => {
    if (!target.cteActionId) return
    const request = {
      subject_token_type: profileType,
      audience: `https://${target.domain}/api/v2/`,
      scope: 'openid',
    }
    const tokens = await auth.tokenExchange.exchangeToken({
      ...request,
      subject_token: cteAssertion(target.domain, userId),
    })
    expect(tokens).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) })
    const forged = cteAssertion(target.domain, userId).replace(/\.[^.]+$/, `.${'A'.repeat(86)}`)
    expect(await statusOf(auth.tokenExchange.exchangeToken({ ...request, subject_token: forged }))).toBe(400)
    await management.tokenExchangeProfiles.delete(profileId)
    expect(await statusOf(management.tokenExchangeProfiles.get(profileId))).toBe(404)
  })
})
