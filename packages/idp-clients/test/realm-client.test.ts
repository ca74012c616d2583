import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import {
  createRealmClient,
  createTokenVerifier,
  deriveRealmPassword,
  IdpMisconfiguredError,
  IdpUnavailableError,
  normalizeRealmClaims,
  type MarketplaceUser,
} from '@pf/idp-clients'

const CLIENT = { clientId: 'pf-exchange', secret: 'pf-exchange-secret' }
const user = (id: string, extra: Partial<MarketplaceUser> = {}): MarketplaceUser => ({
  userId: id,
  orgId: 'org_1',
  applicationId: 'app_1',
  email: `${id}@example.com`,
  ...extra,
})

function clientFor(keycloak: KeycloakEmulator, extra: Partial<Parameters<typeof createRealmClient>[0]> = {}) {
  return createRealmClient({
    serverUrl: keycloak.url,
    realm: keycloak.realm,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.secret,
    adminUser: 'admin',
    adminPassword: 'admin',
    // A hang guard, not a budget: 200 concurrent calls queue up on a loaded 2-core machine. Tests of the
    // time-out itself pass their own short one against a provider that never answers.
    timeoutMs: 60_000,
    ...extra,
  })
}

describe.each([24, 25, 26] as const)('realm client against Keycloak %i', (version) => {
  let keycloak: KeycloakEmulator
  let realm: ReturnType<typeof createRealmClient>
  beforeEach(async () => {
    // An admin token no test here outlives, however busy the machine (the 60 s default would be refreshed midway
    // through the 200 callers); the refresh itself is tested below with a clock of its own.
    keycloak = await startKeycloakEmulator({
      version,
      clients: [CLIENT],
      unmanagedAttributes: true,
      adminTokenLifetimeSec: 3600,
    })
    realm = clientFor(keycloak)
  })
  afterEach(() => keycloak.stop())
  const password = (id: string) => deriveRealmPassword(id, CLIENT.secret)

  it('creates a new user pf-<userId> with attributes, verified email and the pf-user role, then signs it in', async () => {
    const synced = await realm.syncUser(user('u1'), password('u1'))
    expect(synced).toMatchObject({ username: 'pf-u1', created: true, adopted: false })
    const stored = keycloak.users.get(synced.id)!
    expect(stored).toMatchObject({
      username: 'pf-u1',
      email: 'u1@example.com',
      enabled: true,
      emailVerified: true,
      requiredActions: [],
    })
    // Issue 39: the password the exchange set is marked on the account (pfPasswordSetBy).
    expect(stored.attributes).toEqual({
      pfUserId: ['u1'],
      orgId: ['org_1'],
      pfApplicationId: ['app_1'],
      pfPasswordSetBy: ['exchange'],
    })
    // Names at creation: the stock profile's Verify Profile refuses logins without them.
    expect(stored).toMatchObject({ firstName: 'Marketplace', lastName: 'User' })
    expect([...stored.realmRoles].sort()).toEqual(['default-roles-pf', 'pf-user'])

    const tokens = await realm.passwordGrant(synced.username, password('u1'))
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      refresh_token: expect.any(String),
      id_token: expect.any(String),
    })
    const verify = createTokenVerifier({ jwksUri: realm.jwksUri, issuer: realm.issuer })
    const claims = normalizeRealmClaims(await verify(tokens.access_token))
    expect(claims).toMatchObject({
      username: 'pf-u1',
      email: 'u1@example.com',
      pfUserId: 'u1',
      orgId: 'org_1',
      pfApplicationId: 'app_1',
    })
    expect(claims.roles).toContain('pf-user')
    expect(claims.sessionId).toEqual(expect.any(String))
  })

  it(`carries the session id as ${version >= 25 ? 'sid' : 'session_state'} (read either way)`, async () => {
    const synced = await realm.syncUser(user('u2'), password('u2'))
    const tokens = await realm.passwordGrant(synced.username, password('u2'))
    const payload = JSON.parse(
      Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>
    expect(Object.keys(payload)).toContain(version >= 25 ? 'sid' : 'session_state')
  })

  it('finds a returning user by exact username and only re-asserts pf-user when nothing changed', async () => {
    await realm.syncUser(user('u3'), password('u3'))
    const writes = () =>
      keycloak.requests
        .filter((r) => r.method !== 'GET' && r.path.startsWith('/admin'))
        .map((r) => `${r.method} ${r.path.split('/').at(-1)}`)
    const before = writes().length
    expect(await realm.syncUser(user('u3'), password('u3'))).toMatchObject({ created: false })
    expect(writes().slice(before)).toEqual(['POST realm'])
    expect(
      keycloak.requests.filter((r) => r.path.endsWith('/users') && r.method === 'GET').at(-1)?.query,
    ).toMatchObject({ username: 'pf-u3', exact: 'true' })
  })

  it("updates a changed orgId with the complete attribute set, so other systems' attributes survive", async () => {
    const { id } = await realm.syncUser(user('u4'), password('u4'))
    keycloak.users.get(id)!.attributes.crmId = ['crm-77']
    await realm.syncUser(user('u4', { orgId: 'org_2' }), password('u4'))
    expect(keycloak.users.get(id)!.attributes).toEqual({
      pfUserId: ['u4'],
      orgId: ['org_2'],
      pfApplicationId: ['app_1'],
      crmId: ['crm-77'],
      pfPasswordSetBy: ['exchange'],
    })
  })

  it('adopts the user holding the email on a 409, giving it the attributes and the derived password', async () => {
    const other = keycloak.seedUser({
      username: 'jane.doe',
      email: 'jane@example.com',
      password: 'whatever',
      emailVerified: true,
    })
    const synced = await realm.syncUser(user('u5', { email: 'jane@example.com' }), password('u5'))
    expect(synced).toEqual({
      id: other.id,
      pfUserId: 'u5',
      username: 'jane.doe',
      created: false,
      adopted: true,
    })
    expect(other.attributes.pfUserId).toEqual(['u5'])
    expect(other.realmRoles.has('pf-user')).toBe(true)
    await expect(realm.passwordGrant('jane.doe', password('u5'))).resolves.toMatchObject({
      access_token: expect.any(String),
    })
    expect(keycloak.users.size).toBe(1)
  })

  it('leaves exactly one user when two first exchanges of the same user race', async () => {
    const results = await Promise.all([
      realm.syncUser(user('u6'), password('u6')),
      clientFor(keycloak).syncUser(user('u6'), password('u6')),
    ])
    expect(new Set(results.map((r) => r.id)).size).toBe(1)
    expect([...keycloak.users.values()].filter((u) => u.username === 'pf-u6')).toHaveLength(1)
  })

  it('shares one admin token among 200 concurrent callers', async () => {
    await Promise.all(Array.from({ length: 200 }, (_, i) => realm.syncUser(user(`c${i}`), password(`c${i}`))))
    expect(keycloak.adminTokensIssued()).toBe(1)
    expect(keycloak.users.size).toBe(200)
  })

  it('reads the version from the server when configured "auto"', async () => {
    expect(await realm.version()).toBe(version)
  })

  it('logs out: the refresh token stops working', async () => {
    const synced = await realm.syncUser(user('u7'), password('u7'))
    const tokens = await realm.passwordGrant(synced.username, password('u7'))
    await realm.logout(tokens.refresh_token!)
    await expect(realm.logout(tokens.refresh_token!)).rejects.toMatchObject({ code: 'ERR_IDP_INVALID_GRANT' })
  })

  it('endSessions(id) ends every session of a user (POST …/users/{id}/logout); a new password had not', async () => {
    const synced = await realm.syncUser(user('u8'), password('u8'))
    const first = await realm.passwordGrant(synced.username, password('u8'))
    const second = await realm.passwordGrant(synced.username, password('u8'))
    await realm.syncUser(user('u8'), password('u8')) // nothing ends sessions here
    expect(keycloak.sessionsOf(synced.id)).toHaveLength(2)
    await realm.endSessions(synced.id)
    expect(keycloak.sessionsOf(synced.id)).toHaveLength(0)
    for (const tokens of [first, second])
      await expect(realm.logout(tokens.refresh_token!)).rejects.toMatchObject({
        code: 'ERR_IDP_INVALID_GRANT',
      })
  })
})

describe('version 24 specifics and realm set-up problems', () => {
  let keycloak: KeycloakEmulator
  afterEach(() => keycloak.stop())

  it('v24: clears the UPDATE_PASSWORD required action left on a new user before the grant', async () => {
    keycloak = await startKeycloakEmulator({ version: 24, clients: [CLIENT], unmanagedAttributes: true })
    const realm = clientFor(keycloak)
    const synced = await realm.syncUser(user('q1'), deriveRealmPassword('q1', CLIENT.secret))
    expect(keycloak.users.get(synced.id)!.requiredActions).toEqual([])
    await expect(
      realm.passwordGrant('pf-q1', deriveRealmPassword('q1', CLIENT.secret)),
    ).resolves.toBeDefined()
  })

  it('never clears required actions an administrator set: the refusal is explained instead', async () => {
    keycloak = await startKeycloakEmulator({ version: 24, clients: [CLIENT], unmanagedAttributes: true })
    const realm = clientFor(keycloak)
    const synced = await realm.syncUser(user('q2'), deriveRealmPassword('q2', CLIENT.secret))
    keycloak.users.get(synced.id)!.requiredActions = ['CONFIGURE_TOTP']
    const error = await realm
      .signIn(synced, deriveRealmPassword('q2', CLIENT.secret))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdpMisconfiguredError)
    expect((error as Error).message).toMatch(/CONFIGURE_TOTP/)
    expect(keycloak.users.get(synced.id)!.requiredActions).toEqual(['CONFIGURE_TOTP'])
  })

  it('the user-profile trap: attributes silently dropped are reported with how to fix the realm', async () => {
    keycloak = await startKeycloakEmulator({ version: 26, clients: [CLIENT], unmanagedAttributes: false })
    const error = await clientFor(keycloak)
      .syncUser(user('q3'), 'pw')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdpMisconfiguredError)
    expect((error as Error).message).toMatch(/Unmanaged attributes/)
  })

  it('refreshes the admin token before it expires', async () => {
    // Server and client share an injected clock: however slow the machine, only the jump below passes the
    // leeway, and the token fetched then is fresh by the same clock.
    let offsetMs = 0
    const now = () => Date.now() + offsetMs
    keycloak = await startKeycloakEmulator({ clients: [CLIENT], unmanagedAttributes: true, now })
    const realm = clientFor(keycloak, { now })
    await realm.syncUser(user('q4'), 'pw')
    await realm.syncUser(user('q4'), 'pw')
    expect(keycloak.adminTokensIssued()).toBe(1)
    offsetMs = 51_000 // 60 s lifetime - 10 s leeway, passed
    await realm.syncUser(user('q4'), 'pw')
    expect(keycloak.adminTokensIssued()).toBe(2)
  })

  it('reports a provider that is down, or that hangs past the time-out, as unavailable', async () => {
    keycloak = await startKeycloakEmulator({ clients: [CLIENT] })
    keycloak.injectFault({ hang: true })
    await expect(
      clientFor(keycloak, { timeoutMs: 300, retry: { maxRetries: 0 } }).passwordGrant('pf-x', 'pw'),
    ).rejects.toBeInstanceOf(IdpUnavailableError)
    const down = createRealmClient({
      serverUrl: 'http://127.0.0.1:9',
      realm: 'pf',
      clientId: 'a',
      clientSecret: 'b',
      adminUser: 'c',
      adminPassword: 'd',
      retry: { baseDelayMs: 1 },
    })
    await expect(down.passwordGrant('pf-x', 'pw')).rejects.toMatchObject({ code: 'ERR_IDP_UNAVAILABLE' })
  })
})
