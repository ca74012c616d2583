import { createCleanup } from '@pf/testkit'
import { createHash } from 'node:crypto'
import { deriveRealmPassword, syntheticEmail } from '@pf/idp-clients'
import type { EmulatedKeycloakUser, KeycloakEmulatorOptions } from '@pf/testkit/emulators'
import {
  CLIENT_SECRET,
  claims,
  startExchange,
  startWorldOn,
  withRealmSettings,
  type Exchange,
  type Style,
  type World,
} from './support'

// Issue 22, "one marketplace user, one account, and never someone else's": through POST /auth/exchange against
// the Keycloak emulator over HTTP. Adoption (ACCOUNT_ADOPTION=verified) takes over only a verified, enabled,
// local, unlinked holder with a plain password and nothing beyond pf-user and the default roles, and ends its
// sessions first.

// What a test starts is stopped after it, whatever failed (world first started, last stopped).
const cleanup = createCleanup(afterEach)
let world: World
let exchange: Exchange

const EMAIL = 'jane@example.com'
const seedHolder = (extra: Partial<EmulatedKeycloakUser> = {}) =>
  world.keycloak!.seedUser({
    username: 'jane',
    email: EMAIL,
    password: 'janes-own',
    firstName: 'Jane',
    lastName: 'Doe',
    emailVerified: true,
    ...extra,
  })

/** The realm's token endpoint, as the holder's own apps call it. */
async function realmToken(fields: Record<string, string>) {
  const res = await fetch(`${world.keycloak!.url}/realms/pf/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'pf-exchange', client_secret: CLIENT_SECRET, ...fields }),
  })
  return { status: res.status, body: (await res.json()) as { refresh_token?: string; error?: string } }
}
/** The holder signs in with its own password, a while before the exchange (tokens carry whole seconds). */
async function holderSignsIn(holder: EmulatedKeycloakUser, scope: string) {
  const { body } = await realmToken({
    grant_type: 'password',
    username: 'jane',
    password: 'janes-own',
    scope,
  })
  for (const session of world.keycloak!.sessionsOf(holder.id)) session.issuedAt -= 60
  return body.refresh_token!
}

describe.each(['realm-24', 'realm-25', 'realm-26'] as Style[])('adoption on %s', (style) => {
  it('adopts a verified plain holder, ending its sessions and refresh tokens (offline ones too) before issuing ours', async () => {
    world = await startWorldOn(cleanup, style)
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const online = await holderSignsIn(holder, 'openid')
    const offline = await holderSignsIn(holder, 'openid offline_access')
    expect((await realmToken({ grant_type: 'refresh_token', refresh_token: online })).status).toBe(200)

    const res = await exchange.post(world.issuer.mint(claims('u1', { email: EMAIL })))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(holder.id)
    expect(holder.attributes.pfUserId).toEqual(['u1'])
    for (const token of [online, offline])
      expect(await realmToken({ grant_type: 'refresh_token', refresh_token: token })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      })
    expect(
      (await realmToken({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token })).status,
    ).toBe(200)
    const logout = world.keycloak!.requests.find(
      (r) => r.path === `/admin/realms/pf/users/${holder.id}/logout`,
    )
    const grants = world.keycloak!.requests.filter(
      (r) => (r.body as { username?: string } | undefined)?.username === 'jane',
    )
    expect(world.keycloak!.requests.indexOf(logout!)).toBeLessThan(
      world.keycloak!.requests.indexOf(grants.at(-1)!),
    )
  })
})

describe('adoption refusals on realm-26: 409 account_conflict, the holder untouched', () => {
  const cases: [
    string,
    (keycloak: World['keycloak']) => Partial<EmulatedKeycloakUser>,
    KeycloakEmulatorOptions?,
  ][] = [
    ['its email is not verified in the realm', () => ({ emailVerified: false })],
    ['it is disabled', () => ({ enabled: false })],
    ['it lives in a user federation (LDAP)', () => ({ federationLink: 'ldap-component-1' })],
    [
      'it is linked to an identity provider',
      () => ({ federatedIdentities: [{ identityProvider: 'google', userId: 'g-1', userName: EMAIL }] }),
    ],
    [
      'it has a second factor (otp)',
      () => ({ credentials: [{ id: 'otp-1', type: 'otp', userLabel: 'phone', createdDate: 0 }] }),
    ],
    ['it has pending required actions', () => ({ requiredActions: ['VERIFY_EMAIL'] })],
    [
      'it belongs to a group (which grants nothing)',
      (kc) => ({ groups: [kc!.seedGroup({ name: 'staff' }).id] }),
    ],
    [
      'it belongs to an organization',
      (kc) => ({ organizations: [kc!.seedOrganization('Acme').id] }),
      { organizationsEnabled: true },
    ],
    ['it holds org-admin', () => ({ realmRoles: new Set(['default-roles-pf', 'org-admin']) })],
    [
      'a client role reaches an admin role (realm-management:view-users through a composite)',
      () => ({ clientRoles: { 'my-app': ['support'] } }),
      {
        clientRoles: {
          'my-app': [{ name: 'support', composites: [{ client: 'realm-management', role: 'view-users' }] }],
        },
      },
    ],
    [
      "a role named like a default is outside this realm's default roles and reaches org-admin (sets, not names)",
      () => ({ realmRoles: new Set(['default-roles-pf', 'uma_authorization']) }),
      {
        defaultRoles: ['offline_access', { client: 'account', role: 'view-profile' }],
        roles: ['pf-user', 'org-admin', { name: 'uma_authorization', composites: ['org-admin'] }],
      },
    ],
  ]

  // A row without options has two elements: the test takes them as one argument, lest Jest read a third as done.
  it.each(cases.map(([name, extra, options]) => ({ name, extra, options })))(
    '$name',
    async ({ extra, options: keycloakOptions }) => {
      world = await startWorldOn(cleanup, 'realm-26', { keycloak: keycloakOptions })
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
      const holder = seedHolder(extra(world.keycloak))
      const refresh = await holderSignsIn(holder, 'openid').catch(() => undefined)
      const res = await exchange.post(world.issuer.mint(claims('u2', { email: EMAIL })))
      expect(res.status).toBe(409)
      expect(res.body).toEqual({
        error: 'account_conflict',
        error_description: expect.stringMatching(/not adopted/),
      })
      expect(holder).toMatchObject({ password: 'janes-own', notBefore: 0 })
      expect(holder.attributes).toEqual({})
      if (refresh)
        expect((await realmToken({ grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(200)
    },
  )

  it('never adopts when the marketplace token says email_verified: false', async () => {
    world = await startWorldOn(cleanup, 'realm-26')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const res = await exchange.post(world.issuer.mint(claims('u3', { email: EMAIL, email_verified: false })))
    expect(res.status).toBe(409)
    expect(res.body.error_description).toMatch(/email is not verified/)
    expect(holder.password).toBe('janes-own')
  })

  it("adopts a holder whose client roles are within the default roles' effective set (account:manage-account)", async () => {
    world = await startWorldOn(cleanup, 'realm-26')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder({ clientRoles: { account: ['manage-account'] } })
    expect((await exchange.post(world.issuer.mint(claims('u4', { email: EMAIL })))).status).toBe(200)
    expect(holder.attributes.pfUserId).toEqual(['u4'])
  })
})

describe('adoption with the service account (REALM_ADMIN_AUTH=client_credentials)', () => {
  const serviceAccount = (roles: string[]) => ({
    clients: [{ clientId: 'pf-exchange', secret: CLIENT_SECRET, serviceAccountRoles: roles }],
  })
  const asServiceAccount = (version: 25 | 26 = 25) =>
    startExchange(world, {
      configure: (config) =>
        withRealmSettings(config, { adminAuth: 'client_credentials', adminUser: undefined, version }),
    })

  it('fails closed (502 naming the role) when it may not view client roles, which role mappings would hide', async () => {
    world = await startWorldOn(cleanup, 'realm-25', {
      keycloak: serviceAccount(['manage-users', 'view-users', 'query-users', 'view-realm']),
    })
    exchange = cleanup.add(await asServiceAccount(), (e) => e.close())
    const holder = seedHolder({ clientRoles: { 'realm-management': ['realm-admin'] } })
    const res = await exchange.post(world.issuer.mint(claims('u5', { email: EMAIL })))
    expect(res.status).toBe(502)
    expect(res.body.error_description).toMatch(/view-clients/)
    expect(holder.password).toBe('janes-own')
  })

  it('sees the holder’s client roles once it has view-clients, and refuses realm-admin', async () => {
    world = await startWorldOn(cleanup, 'realm-25', {
      keycloak: serviceAccount(['manage-users', 'view-users', 'query-users', 'view-realm', 'view-clients']),
    })
    exchange = cleanup.add(await asServiceAccount(), (e) => e.close())
    seedHolder({ clientRoles: { 'realm-management': ['realm-admin'] } })
    const res = await exchange.post(world.issuer.mint(claims('u6', { email: EMAIL })))
    expect(res.status).toBe(409)
    expect(res.body.error_description).toMatch(/realm-admin/)
  })

  it("adopts on Keycloak 26 with deploy/keycloak's roles when the realm has organizations off (read with view-realm)", async () => {
    world = await startWorldOn(cleanup, 'realm-26', {
      keycloak: serviceAccount(['manage-users', 'view-users', 'query-users', 'view-realm', 'view-clients']),
    })
    exchange = cleanup.add(await asServiceAccount(26), (e) => e.close())
    const holder = seedHolder()
    expect((await exchange.post(world.issuer.mint(claims('u9', { email: EMAIL })))).status).toBe(200)
    expect(holder.attributes.pfUserId).toEqual(['u9'])
  })

  it('fails closed on Keycloak 26 when it may not read organizations (manage-realm), instead of guessing none', async () => {
    world = await startWorldOn(cleanup, 'realm-26', {
      keycloak: {
        ...serviceAccount(['manage-users', 'view-users', 'query-users', 'view-realm', 'view-clients']),
        organizationsEnabled: true,
      },
    })
    exchange = cleanup.add(await asServiceAccount(26), (e) => e.close())
    const holder = seedHolder()
    const res = await exchange.post(world.issuer.mint(claims('u8', { email: EMAIL })))
    expect(res.status).toBe(502)
    expect(res.body.error_description).toMatch(/manage-realm/)
    expect(holder.password).toBe('janes-own')
  })
})

// Issue 35: an account someone else registered as pf-<userId> (self-registration, an editable username, another
// application on a shared realm) is never taken over for its name: only its stored email can make it this user's.
describe.each(['realm-24', 'realm-25', 'realm-26'] as Style[])(
  'an account planted under pf-<userId> on %s',
  (style) => {
    const plant = (username: string, email: string) =>
      world.keycloak!.seedUser({
        username,
        email,
        password: 'attackers-own',
        firstName: 'Mallory',
        lastName: 'M',
        emailVerified: true,
      })
    /** What the exchange asked of the emulator about one account, beyond reading it. */
    const writesTo = (id: string) =>
      world
        .keycloak!.requests.filter((r) => r.method !== 'GET' && r.path.includes(`/users/${id}`))
        .map((r) => `${r.method} ${r.path.replace(`/admin/realms/pf/users/${id}`, '')}`)

    it('is refused with another verified email (409 account_conflict): no update, password reset or logout of it', async () => {
      world = await startWorldOn(cleanup, style)
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
      const planted = plant('pf-victim', 'mallory@example.com')
      const res = await exchange.post(world.issuer.mint(claims('victim', { email: 'victim@example.com' })))
      expect(res.status).toBe(409)
      expect(res.body).toEqual({
        error: 'account_conflict',
        error_description: expect.stringMatching(/account pf-victim is not adopted: its email is not/),
      })
      expect(writesTo(planted.id)).toEqual([])
      expect(planted).toMatchObject({ password: 'attackers-own', attributes: {}, notBefore: 0 })
    })

    it('is refused for a user without an email unless it holds the synthetic address', async () => {
      world = await startWorldOn(cleanup, style)
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
      const planted = plant('pf-no-mail', 'mallory@example.com')
      const res = await exchange.post(world.issuer.mint(claims('no-mail', { email: undefined })))
      expect(res.status).toBe(409)
      expect(writesTo(planted.id)).toEqual([])
    })

    it('is adopted when its stored email is the marketplace user’s (compared trimmed and case-blind)', async () => {
      world = await startWorldOn(cleanup, style)
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
      const own = plant('pf-carol', 'carol@example.com')
      const res = await exchange.post(world.issuer.mint(claims('carol', { email: ' Carol@Example.COM ' })))
      expect(res.status).toBe(200)
      expect(res.body.user.id).toBe(own.id)
      expect(own.attributes.pfUserId).toEqual(['carol'])
      const synthetic = plant('pf-dan', syntheticEmail('dan'))
      const dan = await exchange.post(world.issuer.mint(claims('dan', { email: undefined })))
      expect(dan.body.user.id).toBe(synthetic.id)
    })
  },
)

// Issue 35: the 409 path finds an account adopted earlier (a username of its own) by a quoted search of its link,
// whatever the id holds and the server's parser; before, "ann smith" was searched as "ann" and the holder of the
// user's new email was adopted: a second account for one marketplace user.
describe.each([
  ['26.0.5', 'ann smith'],
  ['26.0.5', 'a\\b "c"'],
  ['26.1.4', 'ann smith'],
  ['26.1.4', 'a\\b "c"'],
])('the link search on Keycloak %s, for user %j', (serverVersion, userId) => {
  it('finds the adopted account and takes no other holder of the email', async () => {
    world = await startWorldOn(cleanup, 'realm-26', { serverVersion })
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const adopted = seedHolder({
      attributes: { pfUserId: [userId], orgId: ['org_1'], pfApplicationId: ['app_1'] },
      password: deriveRealmPassword(userId, CLIENT_SECRET),
    })
    const bob = world.keycloak!.seedUser({
      username: 'bob',
      email: 'bob@example.com',
      password: 'bobs-own',
      firstName: 'Bob',
      lastName: 'B',
      emailVerified: true,
    })
    const res = await exchange.post(world.issuer.mint(claims(userId, { email: 'bob@example.com' })))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(adopted.id)
    expect(bob).toMatchObject({ password: 'bobs-own', attributes: {}, notBefore: 0 })
  })
})

describe('the adoption log line', () => {
  it('records each adoption once: both ids and the email hashed, never the email itself', async () => {
    world = await startWorldOn(cleanup, 'realm-26')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const token = world.issuer.mint(claims('u7', { email: EMAIL }))
    await Promise.all([exchange.post(token), exchange.post(token)])
    const lines = exchange.logs.map((line) => JSON.parse(line) as Record<string, unknown>)
    const adopted = lines.filter((line) => line.event === 'account_adopted')
    expect(adopted).toEqual([
      expect.objectContaining({
        pfUserId: 'u7',
        idpUserId: holder.id,
        emailSha256: createHash('sha256').update(EMAIL).digest('hex'),
      }),
    ])
    expect(JSON.stringify(adopted)).not.toContain(EMAIL)
  })
})
