import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { startReceiver, uniquePrefix, type StartedReceiver } from './support'

const TOKEN = 'dashboard-token-0123456789'
let redis: RedisHandle
beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
afterAll(() => redis.stop())

const basic = (password: string) => ({
  authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`,
})

describe('the queue dashboard (bull-board at /admin/queues)', () => {
  let receiver: StartedReceiver
  afterEach(() => receiver.stop())

  it('is off unless QUEUE_DASHBOARD_TOKEN is set', async () => {
    receiver = await startReceiver(redis.url, uniquePrefix())
    expect((await fetch(`${receiver.url}/admin/queues`, { headers: basic(TOKEN) })).status).toBe(404)
  })

  it('asks for the token, refuses a wrong one, and serves the dashboard with the right one', async () => {
    receiver = await startReceiver(redis.url, uniquePrefix(), { dashboardToken: TOKEN })
    const without = await fetch(`${receiver.url}/admin/queues`)
    expect(without.status).toBe(401)
    expect(without.headers.get('www-authenticate')).toMatch(/^Basic/)
    expect((await fetch(`${receiver.url}/admin/queues`, { headers: basic('wrong') })).status).toBe(401)
    const page = await fetch(`${receiver.url}/admin/queues`, { headers: basic(TOKEN) })
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<html/i)
    const api = await fetch(`${receiver.url}/admin/queues/api/queues`, { headers: basic(TOKEN) })
    expect(api.status).toBe(200)
    expect(JSON.stringify(await api.json())).toContain('webhooks')
  })
})
