import { deriveRealmPassword } from '@pf/idp-clients'
import { createLogger, createMetricsRegistry } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import { createExchange } from '../src/create-exchange'
import {
  CLIENT_SECRET,
  claims,
  configFor,
  startExchange,
  startWorld,
  withRealmSettings,
  type Exchange,
  type World,
} from './support'

// Through POST /auth/exchange, against the Keycloak emulator made faithful to shared/spec/idp-facts.md: the
// stock user profile (names required at login), no partial PUT since 24.0.4, lower-cased usernames.
describe.each(['realm-24', 'realm-25', 'realm-26'] as const)(
  'exchange on %s with the stock user profile',
  (style) => {
    let world: World
    let exchange: Exchange
    const cleanup = createCleanup(afterEach)
    beforeEach(async () => {
      world = cleanup.add(await startWorld(style), (w) => w.stop())
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
    })
    const stored = (username: string) =>
      [...world.keycloak!.users.values()].find((u) => u.username === username)!

    it('creates users with names (claims, else "Marketplace User"), so Verify Profile lets the password grant through', async () => {
      expect(
        (await exchange.post(world.issuer.mint(claims('n1', { given_name: 'Ada', family_name: 'Lovelace' }))))
          .status,
      ).toBe(200)
      expect(stored('pf-n1')).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' })
      expect((await exchange.post(world.issuer.mint(claims('n2')))).status).toBe(200)
      expect(stored('pf-n2')).toMatchObject({ firstName: 'Marketplace', lastName: 'User' })
    })

    it('updates a returning user by GET then PUT of the whole representation: email, names and other attributes survive', async () => {
      expect((await exchange.post(world.issuer.mint(claims('r1')))).status).toBe(200)
      const user = stored('pf-r1')
      user.attributes.crmId = ['crm-1']
      user.firstName = 'Grace'
      const again = await startExchange(world) // a cold instance: no warm cache
      try {
        expect((await again.post(world.issuer.mint(claims('r1', { orgId: 'org_2' })))).status).toBe(200)
      } finally {
        await again.close()
      }
      expect(user).toMatchObject({ email: 'r1@example.com', firstName: 'Grace', lastName: 'User' })
      expect(user.attributes).toEqual({
        pfUserId: ['r1'],
        orgId: ['org_2'],
        pfApplicationId: ['app_1'],
        crmId: ['crm-1'],
        // Issue 39: the password the exchange set at creation is marked.
        pfPasswordSetBy: ['exchange'],
      })
      const put = world.keycloak!.requests.findLast(
        (r) => r.method === 'PUT' && r.path.endsWith(`/users/${user.id}`),
      )
      expect(put?.body).toMatchObject({
        username: 'pf-r1',
        email: 'r1@example.com',
        firstName: 'Grace',
        enabled: true,
      })
    })

    it('gives user ids that differ only in case two accounts (Keycloak lower-cases usernames)', async () => {
      const upper = await exchange.post(world.issuer.mint(claims('Carol', { email: 'carol1@example.com' })))
      const lower = await exchange.post(world.issuer.mint(claims('carol', { email: 'carol2@example.com' })))
      expect([upper.status, lower.status]).toEqual([200, 200])
      expect(upper.body.user.id).not.toBe(lower.body.user.id)
      expect(world.userCount()).toBe(2)
    })

    it('gives users without email one-to-one synthetic addresses ("a b" and "a-20-b" are two people)', async () => {
      const first = await exchange.post(world.issuer.mint(claims('a b', { email: undefined })))
      const second = await exchange.post(world.issuer.mint(claims('a-20-b', { email: undefined })))
      expect([first.status, second.status]).toEqual([200, 200])
      expect(first.body.user.email).not.toBe(second.body.user.email)
      expect(first.body.user.id).not.toBe(second.body.user.id)
    })

    it('re-asserts pf-user on a returning user who lost it (a failure between create and role assignment)', async () => {
      expect((await exchange.post(world.issuer.mint(claims('p1')))).status).toBe(200)
      stored('pf-p1').realmRoles.delete('pf-user')
      const again = await startExchange(world)
      try {
        const res = await again.post(world.issuer.mint(claims('p1')))
        expect(res.body.user.roles).toContain('pf-user')
      } finally {
        await again.close()
      }
    })

    it('recovers from a rotated client secret by setting the derived password once', async () => {
      expect((await exchange.post(world.issuer.mint(claims('s1')))).status).toBe(200)
      // The realm client's secret was rotated: the exchange now derives passwords from the new one.
      world.keycloak!.users.get(stored('pf-s1').id)!.password = deriveRealmPassword('s1', 'an-older-secret')
      const again = await startExchange(world)
      try {
        expect((await again.post(world.issuer.mint(claims('s1')))).status).toBe(200)
      } finally {
        await again.close()
      }
      expect(stored('pf-s1').password).toBe(deriveRealmPassword('s1', CLIENT_SECRET))
    })

    it("never clears an administrator's required actions nor re-enables a disabled account: 502 says why", async () => {
      expect((await exchange.post(world.issuer.mint(claims('t1')))).status).toBe(200)
      expect((await exchange.post(world.issuer.mint(claims('t2')))).status).toBe(200)
      stored('pf-t1').requiredActions = ['CONFIGURE_TOTP']
      stored('pf-t2').enabled = false
      const again = await startExchange(world)
      try {
        const totp = await again.post(world.issuer.mint(claims('t1')))
        expect(totp.status).toBe(502)
        expect(totp.body.error_description).toMatch(/CONFIGURE_TOTP/)
        expect((await again.post(world.issuer.mint(claims('t2')))).status).toBe(502)
      } finally {
        await again.close()
      }
      expect(stored('pf-t1').requiredActions).toEqual(['CONFIGURE_TOTP'])
      expect(stored('pf-t2').enabled).toBe(false)
    })

    it('retries a 429 from the realm, honouring Retry-After', async () => {
      world.keycloak!.injectFault({
        status: 429,
        headers: { 'retry-after': '0' },
        times: 2,
        match: (call) => call.method === 'POST' && call.path.endsWith('/users'),
      })
      expect((await exchange.post(world.issuer.mint(claims('l1')))).status).toBe(200)
    })
  },
)

describe('adoption of the holder of the email on a 409 (ACCOUNT_ADOPTION), realm style', () => {
  let world: World
  let exchange: Exchange
  const cleanup = createCleanup(afterEach)
  beforeEach(async () => {
    world = cleanup.add(await startWorld('realm-26'), (w) => w.stop())
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
  })
  const seedHolder = (extra: Record<string, unknown> = {}) =>
    world.keycloak!.seedUser({
      username: 'jane',
      email: 'jane@example.com',
      password: 'janes-own',
      firstName: 'Jane',
      lastName: 'Doe',
      emailVerified: true,
      ...extra,
    })

  it('never adopts an account linked to another marketplace user: 409 account_conflict, nothing changed', async () => {
    const holder = seedHolder({ attributes: { pfUserId: ['someone-else'] } })
    const res = await exchange.post(world.issuer.mint(claims('victim', { email: 'jane@example.com' })))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: 'account_conflict',
      error_description: expect.stringMatching(/another marketplace user/),
    })
    expect(holder).toMatchObject({ password: 'janes-own', attributes: { pfUserId: ['someone-else'] } })
  })

  it('never adopts an account holding roles beyond pf-user (org-admin)', async () => {
    const holder = seedHolder({ realmRoles: new Set(['default-roles-pf', 'org-admin']) })
    const res = await exchange.post(world.issuer.mint(claims('u2', { email: 'jane@example.com' })))
    expect(res.status).toBe(409)
    expect(holder.password).toBe('janes-own')
    expect(holder.attributes).toEqual({})
  })

  it('adopts a verified plain account by default, and none with ACCOUNT_ADOPTION=never', async () => {
    const holder = seedHolder()
    const never = await startExchange(world, { configure: (config) => ({ ...config, adoption: 'never' }) })
    try {
      expect((await never.post(world.issuer.mint(claims('u3', { email: 'jane@example.com' })))).status).toBe(
        409,
      )
    } finally {
      await never.close()
    }
    expect(holder.password).toBe('janes-own')
    const res = await exchange.post(world.issuer.mint(claims('u3', { email: 'jane@example.com' })))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(holder.id)
    // Once adopted, the account is this user's: the next cold exchange finds it through the link.
    const again = await startExchange(world)
    try {
      expect(
        (await again.post(world.issuer.mint(claims('u3', { email: 'jane@example.com' })))).body.user.id,
      ).toBe(holder.id)
    } finally {
      await again.close()
    }
  })

  it('refuses an account found by its pf- username but linked to another user', async () => {
    world.keycloak!.seedUser({
      username: 'pf-u4',
      email: 'x@example.com',
      password: 'p',
      attributes: { pfUserId: ['U4'] },
    })
    expect((await exchange.post(world.issuer.mint(claims('u4')))).status).toBe(409)
  })
})

describe('realm server and admin access', () => {
  let world: World
  afterEach(() => world.stop())
  const quietLogger = () => createLogger({ name: 'test', level: 'silent' })

  it('refuses at start a server older than Keycloak 24 (REALM_VERSION=auto reads serverinfo)', async () => {
    world = await startWorld('realm-24', { serverVersion: '23.0.7' })
    const exchange = createExchange(configFor(world), {
      logger: quietLogger(),
      registry: createMetricsRegistry('t'),
    })
    await expect(exchange.start()).rejects.toThrow(/23\.0\.7 is not supported: 24 or newer/)
  })

  it('with REALM_ADMIN_AUTH=client_credentials uses the service account in its own realm, never the master realm', async () => {
    world = await startWorld('realm-26')
    const exchange = await startExchange(world, {
      configure: (config) =>
        withRealmSettings(config, {
          adminAuth: 'client_credentials',
          adminUser: undefined,
          adminPassword: undefined,
          version: 26,
        }),
    })
    try {
      expect((await exchange.post(world.issuer.mint(claims('sa1')))).status).toBe(200)
    } finally {
      await exchange.close()
    }
    const tokenCalls = world.keycloak!.requests.filter((r) => r.path.endsWith('/openid-connect/token'))
    expect(tokenCalls.some((r) => r.path.startsWith('/realms/master'))).toBe(false)
    expect(
      tokenCalls.some((r) => (r.body as { grant_type?: string }).grant_type === 'client_credentials'),
    ).toBe(true)
  })

  it('asks for REALM_VERSION when the service account may not read the server version', async () => {
    world = await startWorld('realm-26')
    const config = withRealmSettings(configFor(world), { adminAuth: 'client_credentials', version: 'auto' })
    const exchange = createExchange(config, { logger: quietLogger(), registry: createMetricsRegistry('t') })
    await expect(exchange.start()).rejects.toThrow(/set REALM_VERSION/)
  })

  it('answers 503 within EXCHANGE_DEADLINE_MS when the provider hangs, whatever IDP_TIMEOUT_MS allows', async () => {
    world = await startWorld('realm-26')
    world.keycloak!.injectFault({ hang: true, times: 1000 })
    const exchange = await startExchange(world, {
      timeoutMs: 60_000,
      configure: (config) => ({ ...config, deadlineMs: 300 }),
    })
    try {
      const res = await exchange.post(world.issuer.mint(claims('d1')))
      expect(res.status).toBe(503)
      expect(res.body.error).toBe('idp_unavailable')
    } finally {
      await exchange.close()
    }
  })
})
