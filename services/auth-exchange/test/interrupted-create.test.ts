import { createCleanup } from '@pf/testkit'
import { claims, startExchange, startWorldOn, type Exchange, type World } from './support'

// Issue 22, "Keycloak 24, interrupted create": version 24 leaves UPDATE_PASSWORD on a user created with a
// non-temporary password, and the exchange removes it right after the create. A create interrupted between
// the two (its answer lost: a 503 or a time-out after Keycloak stored the user) used to lock the user out for
// good ("Account is not fully set up" on every grant). Through POST /auth/exchange, the emulator's fault acting
// after the request was served.

// What a test starts is stopped after it, whatever failed (world first started, last stopped).
const cleanup = createCleanup(afterEach)
let world: World
let exchange: Exchange
const createUser = (call: { method: string; path: string }) =>
  call.method === 'POST' && call.path === '/admin/realms/pf/users'
const stored = (username: string) => [...world.keycloak!.users.values()].find((u) => u.username === username)!

describe('Keycloak 24: a create interrupted before its clean-up', () => {
  beforeEach(async () => {
    world = await startWorldOn(cleanup, 'realm-24')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
  })

  it('a 503 after POST /users stored the user: the next exchange clears the stray UPDATE_PASSWORD and signs in', async () => {
    // The create and its retries are all served, and all answered 503.
    world.keycloak!.injectFault({ after: true, status: 503, times: 3, match: createUser })
    expect((await exchange.post(world.issuer.mint(claims('i1')))).status).toBe(503)
    expect(stored('pf-i1').requiredActions).toEqual(['UPDATE_PASSWORD'])

    const again = await startExchange(world) // another instance: no memory of the first attempt
    try {
      const res = await again.post(world.issuer.mint(claims('i1')))
      expect(res.status).toBe(200)
      expect(res.body.user.id).toBe(stored('pf-i1').id)
    } finally {
      await again.close()
    }
    expect(stored('pf-i1').requiredActions).toEqual([])
    expect(world.userCount()).toBe(1)
  })

  it('a time-out after POST /users (the answer never came, inside the exchange deadline): the next exchange succeeds', async () => {
    world.keycloak!.injectFault({ after: true, hang: true, match: createUser })
    const hurried = await startExchange(world, { configure: (config) => ({ ...config, deadlineMs: 1000 }) })
    try {
      expect((await hurried.post(world.issuer.mint(claims('i2')))).status).toBe(503)
    } finally {
      await hurried.close()
    }
    world.keycloak!.clearFaults()
    const res = await exchange.post(world.issuer.mint(claims('i2')))
    expect(res.status).toBe(200)
    expect(stored('pf-i2').requiredActions).toEqual([])
  })

  it("leaves any other pending action alone (an administrator's VERIFY_EMAIL beside it): 502 naming it", async () => {
    expect((await exchange.post(world.issuer.mint(claims('i3')))).status).toBe(200)
    stored('pf-i3').requiredActions = ['UPDATE_PASSWORD', 'VERIFY_EMAIL']
    const again = await startExchange(world)
    try {
      const res = await again.post(world.issuer.mint(claims('i3')))
      expect(res.status).toBe(502)
      expect(res.body).toMatchObject({
        error: 'idp_error',
        error_description: expect.stringMatching(/VERIFY_EMAIL/),
      })
    } finally {
      await again.close()
    }
    expect(stored('pf-i3').requiredActions).toEqual(['UPDATE_PASSWORD', 'VERIFY_EMAIL'])
  })

  it('leaves UPDATE_PASSWORD on a disabled account alone', async () => {
    expect((await exchange.post(world.issuer.mint(claims('i4')))).status).toBe(200)
    Object.assign(stored('pf-i4'), { requiredActions: ['UPDATE_PASSWORD'], enabled: false })
    const again = await startExchange(world)
    try {
      expect((await again.post(world.issuer.mint(claims('i4')))).status).toBe(502)
    } finally {
      await again.close()
    }
    expect(stored('pf-i4').requiredActions).toEqual(['UPDATE_PASSWORD'])
  })
})

describe('Keycloak 26 has no such quirk', () => {
  it('treats UPDATE_PASSWORD as an administrator’s action there: 502, untouched', async () => {
    world = await startWorldOn(cleanup, 'realm-26')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    expect((await exchange.post(world.issuer.mint(claims('i5')))).status).toBe(200)
    stored('pf-i5').requiredActions = ['UPDATE_PASSWORD']
    const again = await startExchange(world)
    try {
      const res = await again.post(world.issuer.mint(claims('i5')))
      expect(res.status).toBe(502)
      expect(res.body.error_description).toMatch(/UPDATE_PASSWORD/)
    } finally {
      await again.close()
    }
    expect(stored('pf-i5').requiredActions).toEqual(['UPDATE_PASSWORD'])
  })
})
