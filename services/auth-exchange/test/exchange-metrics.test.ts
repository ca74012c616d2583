import { createCleanup } from '@pf/testkit'
import { claims, startExchange, startWorldOn, type Exchange, type World } from './support'

// What the exchange dashboard and the identity-provider alert read (deploy/monitoring), on /metrics: provider
// errors by code and status, adoptions, and adoption refusals as the outcome account_conflict.
const cleanup = createCleanup(afterAll)
let world: World
let exchange: Exchange

beforeAll(async () => {
  world = await startWorldOn(cleanup, 'tenant')
  exchange = cleanup.add(await startExchange(world), (e) => e.close())
})

const scrape = async () => (await (await fetch(`${exchange.url}/metrics`)).text()).split('\n')
const value = (lines: string[], series: string) =>
  Number(lines.find((line) => line.startsWith(`${series} `))?.slice(series.length + 1) ?? Number.NaN)

describe('exchange metrics', () => {
  it('counts an adopted account, and a refused adoption as account_conflict but not as a provider error', async () => {
    world.auth0!.seedUser({ email: 'adopted@example.com', password: 'Own-pass-1', email_verified: true })
    world.auth0!.seedUser({ email: 'blocked@example.com', password: 'Own-pass-2', blocked: true })
    expect(
      (await exchange.post(world.issuer.mint(claims('m1', { email: 'adopted@example.com' })))).status,
    ).toBe(200)
    expect(
      (await exchange.post(world.issuer.mint(claims('m2', { email: 'blocked@example.com' })))).status,
    ).toBe(409)
    const lines = await scrape()
    expect(value(lines, 'pf_exchange_account_adoptions_total')).toBe(1)
    expect(value(lines, 'pf_exchange_total{outcome="account_conflict"}')).toBe(1)
    expect(lines.filter((line) => line.startsWith('pf_exchange_idp_errors_total{'))).toEqual([])
  })

  it('counts provider errors by code and HTTP status: 429 after the retries, none when it does not answer', async () => {
    world.auth0!.rateLimit(1000)
    expect((await exchange.post(world.issuer.mint(claims('m3')))).status).toBe(503)
    world.auth0!.clearFaults()
    await world.auth0!.stop()
    expect((await exchange.post(world.issuer.mint(claims('m4')))).status).toBe(503)
    const lines = await scrape()
    expect(value(lines, 'pf_exchange_idp_errors_total{code="ERR_IDP_RATE_LIMITED",status="429"}')).toBe(1)
    expect(value(lines, 'pf_exchange_idp_errors_total{code="ERR_IDP_UNAVAILABLE",status="none"}')).toBe(1)
  })
})
