import { createCleanup } from '@pf/testkit'
import { createResponseValidator } from '@pf/testkit/openapi'
import { claims, startExchange, startWorld, type Exchange, type World } from './support'

let world: World
let exchange: Exchange
let hangingOut: Exchange
let conforms: ReturnType<typeof createResponseValidator>
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  world = cleanup.add(await startWorld('realm-26'), (w) => w.stop())
  exchange = cleanup.add(await startExchange(world), (e) => e.close())
  hangingOut = cleanup.add(await startExchange(world, { timeoutMs: 300 }), (e) => e.close())
  conforms = createResponseValidator(
    (await (await fetch(`${exchange.url}/openapi.json`)).json()) as Record<string, unknown>,
  )
})

describe('GET /openapi.json: every answer of the exchange is as documented (OpenAPI 3.1)', () => {
  it('200, 401 on /auth/exchange and 204, 400 on /auth/logout', async () => {
    const ok = await exchange.post(world.issuer.mint(claims('o1')))
    expect(conforms('post', '/auth/exchange', 200, ok.body)).toEqual([])
    const refused = await exchange.post('garbage')
    expect(conforms('post', '/auth/exchange', 401, refused.body)).toEqual([])
    expect((await exchange.logout(ok.body.refresh_token)).status).toBe(204)
    const bad = await exchange.logout(undefined)
    expect(conforms('post', '/auth/logout', 400, bad.body)).toEqual([])
  })

  it('502 and 503 on /auth/exchange', async () => {
    world.keycloak!.injectFault({
      status: 400,
      body: { error: 'invalid_request' },
      times: 1,
      match: (call) => call.path.includes('/token'),
    })
    const refused = await exchange.post(world.issuer.mint(claims('o2')))
    expect(refused.status).toBe(502)
    expect(conforms('post', '/auth/exchange', 502, refused.body)).toEqual([])
    world.keycloak!.injectFault({ hang: true, times: 10 })
    const down = await hangingOut.post(world.issuer.mint(claims('o3')))
    expect(down.status).toBe(503)
    expect(conforms('post', '/auth/exchange', 503, down.body)).toEqual([])
  })
})

describe('GET /openapi.json: the ops endpoints answer as documented ({status} only)', () => {
  it('/health 200, /ready 200 and 503', async () => {
    world.keycloak!.clearFaults() // the hangs injected above, if any are left
    for (const path of ['/health', '/ready']) {
      const res = await fetch(`${exchange.url}${path}`)
      expect(res.status).toBe(200)
      expect(conforms('get', path, 200, await res.json())).toEqual([])
    }
    // `hangingOut` has not checked its readiness yet: nothing cached.
    world.issuer.setJwksAvailable(false)
    try {
      const res = await fetch(`${hangingOut.url}/ready`)
      expect(res.status).toBe(503)
      expect(conforms('get', '/ready', 503, await res.json())).toEqual([])
    } finally {
      world.issuer.setJwksAvailable(true)
    }
  })
})
