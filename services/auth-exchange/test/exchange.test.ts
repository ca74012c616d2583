import { deriveRealmPassword, deriveTenantPassword } from '@pf/idp-clients'
import { createCleanup } from '@pf/testkit'
import {
  CLIENT_SECRET,
  claims,
  startExchange,
  startWorld,
  type Exchange,
  type Style,
  type World,
} from './support'

describe.each(['realm-24', 'realm-25', 'realm-26', 'tenant'] as Style[])(
  'POST /auth/exchange with %s',
  (style) => {
    let world: World
    let exchange: Exchange
    const cleanup = createCleanup(afterEach)
    beforeEach(async () => {
      world = cleanup.add(await startWorld(style), (w) => w.stop())
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
    })

    it('exchanges a new user: creates it and answers the provider tokens and the user', async () => {
      const res = await exchange.post(world.issuer.mint(claims('u1')))
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.body).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: expect.any(Number),
      })
      expect(res.body.user).toEqual({
        id: expect.any(String),
        pfUserId: 'u1',
        orgId: 'org_1',
        applicationId: 'app_1',
        email: 'u1@example.com',
        roles: expect.arrayContaining(['pf-user']),
      })
      expect(world.userCount()).toBe(1)
    })

    it('uses a synthetic address when the token has no email', async () => {
      const res = await exchange.post(world.issuer.mint(claims('u2', { email: undefined })))
      expect(res.status).toBe(200)
      expect(res.body.user.email).toBe('u2@users.pf.invalid')
    })

    it('a returning user on a fresh instance is found, not created again', async () => {
      await exchange.post(world.issuer.mint(claims('u3')))
      const other = await startExchange(world)
      try {
        const res = await other.post(world.issuer.mint(claims('u3')))
        expect(res.status).toBe(200)
        expect(world.userCount()).toBe(1)
      } finally {
        await other.close()
      }
    })

    it('warm path: a known, unchanged user costs one provider round trip (the password grant)', async () => {
      await exchange.post(world.issuer.mint(claims('u4')))
      const before = world.requestCount()
      const res = await exchange.post(world.issuer.mint(claims('u4')))
      expect(res.status).toBe(200)
      expect(world.requestCount() - before).toBe(1)
    })

    it('a changed orgId runs the full flow and updates the provider user', async () => {
      await exchange.post(world.issuer.mint(claims('u5')))
      const res = await exchange.post(world.issuer.mint(claims('u5', { orgId: 'org_2' })))
      expect(res.status).toBe(200)
      expect(res.body.user.orgId).toBe('org_2')
      const stored = world.keycloak
        ? [...world.keycloak.users.values()][0]?.attributes.orgId
        : [...world.auth0!.users.values()][0]?.app_metadata.orgId
      expect(stored).toEqual(world.keycloak ? ['org_2'] : 'org_2')
    })

    it('falls back to the full flow when the warm grant says the user is gone', async () => {
      await exchange.post(world.issuer.mint(claims('u6')))
      if (world.keycloak) world.keycloak.users.clear()
      else world.auth0!.users.clear()
      const res = await exchange.post(world.issuer.mint(claims('u6')))
      expect(res.status).toBe(200)
      expect(world.userCount()).toBe(1)
    })

    it('adopts a provider user that already holds the email (409)', async () => {
      const seeded = world.keycloak
        ? world.keycloak.seedUser({ username: 'jane', email: 'jane@example.com', emailVerified: true }).id
        : world.auth0!.seedUser({ email: 'jane@example.com', password: 'Other-pass-1', email_verified: true })
            .user_id
      const res = await exchange.post(world.issuer.mint(claims('u7', { email: 'jane@example.com' })))
      expect(res.status).toBe(200)
      expect(res.body.user.id).toBe(seeded)
      expect(world.userCount()).toBe(1)
    })

    it('two first exchanges of the same new user on two instances both succeed, leaving one provider user', async () => {
      const other = await startExchange(world)
      try {
        const token = world.issuer.mint(claims('u8'))
        const results = await Promise.all([
          exchange.post(token),
          other.post(token),
          exchange.post(token),
          other.post(token),
        ])
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200])
        expect(world.userCount()).toBe(1)
      } finally {
        await other.close()
      }
    })

    it('POST /auth/logout revokes the refresh token: 204', async () => {
      const { body } = await exchange.post(world.issuer.mint(claims('u9')))
      expect((await exchange.logout(body.refresh_token)).status).toBe(204)
      expect((await exchange.logout(body.refresh_token)).status).toBe(204)
      expect(await exchange.logout(undefined)).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: 'refresh_token is required' },
      })
    })

    it('answers 503 idp_unavailable with Retry-After when the provider is down', async () => {
      const token = world.issuer.mint(claims('u10'))
      if (world.keycloak) await world.keycloak.stop()
      else await world.auth0!.stop()
      const res = await exchange.post(token)
      expect(res.status).toBe(503)
      expect(res.body).toEqual({
        error: 'idp_unavailable',
        error_description: expect.stringMatching(/^identity provider unavailable/),
      })
      expect(res.headers.get('retry-after')).toBe('5')
    })

    it('answers 503 within the time-out when the provider hangs', async () => {
      const slow = await startExchange(world, { timeoutMs: 300 })
      try {
        ;(world.keycloak ?? world.auth0!).injectFault({ hang: true, times: 10 })
        const res = await slow.post(world.issuer.mint(claims('u11')))
        expect(res.status).toBe(503)
      } finally {
        await slow.close()
      }
    })

    it('never writes tokens, passwords or secrets to its logs', async () => {
      const { body } = await exchange.post(world.issuer.mint(claims('u12')))
      if (world.keycloak) await world.keycloak.stop()
      else await world.auth0!.stop()
      await exchange.post(world.issuer.mint(claims('u13')))
      const logs = exchange.logs.join('\n')
      expect(logs).toContain('"userId":"u12"')
      for (const secret of [
        CLIENT_SECRET,
        body.access_token,
        body.refresh_token,
        deriveRealmPassword('u13', CLIENT_SECRET),
        deriveTenantPassword('u13', CLIENT_SECRET),
      ]) {
        expect(logs).not.toContain(secret)
      }
    })
  },
)

describe('identity provider refusals', () => {
  it('answers 502 idp_error when the realm drops the attributes (user-profile trap)', async () => {
    const world = await startWorld('realm-26', { unmanagedAttributes: false })
    const exchange = await startExchange(world)
    try {
      const res = await exchange.post(world.issuer.mint(claims('r1')))
      expect(res.status).toBe(502)
      expect(res.body.error).toBe('idp_error')
      expect(res.body.error_description).toMatch(/Unmanaged attributes/)
    } finally {
      await exchange.close()
      await world.stop()
    }
  })

  it('rides out a short 429 storm and answers 503 with Retry-After to a long one (tenant)', async () => {
    const world = await startWorld('tenant')
    const exchange = await startExchange(world)
    try {
      world.auth0!.rateLimit(2)
      expect((await exchange.post(world.issuer.mint(claims('r2')))).status).toBe(200)
      world.auth0!.rateLimit(1000)
      const res = await exchange.post(world.issuer.mint(claims('r3')))
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toEqual(expect.any(String))
    } finally {
      world.auth0!.clearFaults()
      await exchange.close()
      await world.stop()
    }
  })
})
