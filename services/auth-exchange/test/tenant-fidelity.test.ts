import { deriveTenantPassword } from '@pf/idp-clients'
import {
  CLIENT_SECRET,
  claims,
  startExchange,
  startWorld,
  withTenantSettings,
  type Exchange,
  type World,
} from './support'

// Through POST /auth/exchange, against the Auth0 emulator made faithful to shared/spec/idp-facts.md: an
// eventually consistent user search, email unique per connection, password-realm for named connections.

describe('exchange on Auth0 (tenant style)', () => {
  let world: World
  let exchange: Exchange
  afterEach(async () => {
    await exchange.close()
    await world.stop()
  })

  it('serves a second exchange on another instance right after the first, though the search has not caught up', async () => {
    world = await startWorld('tenant', { searchLagMs: 60_000 })
    exchange = await startExchange(world)
    const other = await startExchange(world)
    try {
      const first = await exchange.post(world.issuer.mint(claims('c1')))
      const second = await other.post(world.issuer.mint(claims('c1')))
      expect([first.status, second.status]).toEqual([200, 200])
      expect(second.body.user.id).toBe(first.body.user.id)
      expect(world.userCount()).toBe(1)
    } finally {
      await other.close()
    }
  })

  it('signs users of a connection other than the default directory in with password-realm', async () => {
    world = await startWorld('tenant', { connections: ['Username-Password-Authentication', 'pf-db'] })
    exchange = await startExchange(world, {
      configure: (config) => withTenantSettings(config, { connection: 'pf-db' }),
    })
    const res = await exchange.post(world.issuer.mint(claims('c2')))
    expect(res.status).toBe(200)
    expect([...world.auth0!.users.values()][0]).toMatchObject({ connection: 'pf-db' })
  })

  it('creates its own user beside a holder of the email in another connection, leaving that one alone', async () => {
    world = await startWorld('tenant', {
      connections: ['Username-Password-Authentication', { name: 'google-oauth2', database: false }],
    })
    exchange = await startExchange(world)
    const social = world.auth0!.seedUser({
      email: 'c3@example.com',
      password: '',
      connection: 'google-oauth2',
    })
    const res = await exchange.post(world.issuer.mint(claims('c3')))
    expect(res.status).toBe(200)
    expect(res.body.user.id).not.toBe(social.user_id)
    expect(social.app_metadata).toEqual({})
  })

  it('never adopts a holder linked to another marketplace user, and changes nothing on it (409 account_conflict)', async () => {
    world = await startWorld('tenant')
    exchange = await startExchange(world)
    const holder = world.auth0!.seedUser({
      email: 'jane@example.com',
      password: 'Janes-own-1',
      app_metadata: { pfUserId: 'someone-else' },
    })
    const res = await exchange.post(world.issuer.mint(claims('victim', { email: 'jane@example.com' })))
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('account_conflict')
    expect(holder).toMatchObject({ password: 'Janes-own-1', app_metadata: { pfUserId: 'someone-else' } })
  })

  it('never adopts a holder with roles beyond pf-user', async () => {
    world = await startWorld('tenant', {
      roles: [
        { id: 'rol_pfUser0000001', name: 'pf-user' },
        { id: 'rol_admin', name: 'org-admin' },
      ],
    })
    exchange = await startExchange(world)
    const holder = world.auth0!.seedUser({
      email: 'boss@example.com',
      password: 'Boss-own-1',
      roles: new Set(['rol_admin']),
    })
    const res = await exchange.post(world.issuer.mint(claims('u2', { email: 'boss@example.com' })))
    expect(res.status).toBe(409)
    expect(holder.password).toBe('Boss-own-1')
  })

  it('sends auth0-forwarded-for with the caller IP when TENANT_FORWARDED_FOR=true', async () => {
    world = await startWorld('tenant')
    exchange = await startExchange(world, {
      configure: (config) => withTenantSettings(config, { forwardedFor: true }),
    })
    expect((await exchange.post(world.issuer.mint(claims('f1')))).status).toBe(200)
    const grant = world.auth0!.requests.find((r) =>
      (r.body as { grant_type?: string } | undefined)?.grant_type?.includes('password'),
    )
    expect(grant?.headers['auth0-forwarded-for']).toMatch(/127\.0\.0\.1/)
  })

  it('retries a 429 on the management API, honouring x-ratelimit-reset', async () => {
    world = await startWorld('tenant')
    exchange = await startExchange(world)
    world.auth0!.rateLimit(2, (call) => call.path.startsWith('/api/v2/users'))
    expect((await exchange.post(world.issuer.mint(claims('r1')))).status).toBe(200)
  })

  it('recovers from a rotated client secret by setting the derived password once', async () => {
    world = await startWorld('tenant')
    exchange = await startExchange(world)
    const first = await exchange.post(world.issuer.mint(claims('s1')))
    const user = world.auth0!.users.get(first.body.user.id)!
    user.password = deriveTenantPassword('s1', 'an-older-secret')
    const again = await startExchange(world)
    try {
      expect((await again.post(world.issuer.mint(claims('s1')))).status).toBe(200)
    } finally {
      await again.close()
    }
    expect(user.password).toBe(deriveTenantPassword('s1', CLIENT_SECRET))
  })
})
