import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { makeEvent, postSigned, startReceiver, uniquePrefix, type StartedReceiver } from './support'

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

  /** Accepts one event, and the dashboard API's action on its job (bull-board's "clean" removes the job). */
  async function acceptOne() {
    const body = JSON.stringify(makeEvent('session.created'))
    expect((await postSigned(receiver.webhookUrl, body)).status).toBe(200)
    const [job] = await receiver.queue.getJobs(['waiting'])
    const act = (action: string) =>
      fetch(`${receiver.url}/admin/queues/api/queues/webhooks/${job!.id!}/${action}`, {
        method: 'PUT',
        headers: basic(TOKEN),
      })
    const queueAction = (action: string) =>
      fetch(`${receiver.url}/admin/queues/api/queues/webhooks/${action}`, {
        method: 'PUT',
        headers: basic(TOKEN),
      })
    return { body, act, queueAction }
  }
  const waiting = async () => (await receiver.queue.getJobCounts('waiting')).waiting

  it('is read-only by default (QUEUE_DASHBOARD_READ_ONLY): removing a job, cleaning, emptying or pausing the queue answers 405 and changes nothing', async () => {
    receiver = await startReceiver(redis.url, uniquePrefix(), { dashboardToken: TOKEN })
    const { act, queueAction } = await acceptOne()
    expect((await act('clean')).status).toBe(405)
    expect((await queueAction('clean/waiting')).status).toBe(405)
    expect((await queueAction('empty')).status).toBe(405)
    expect((await queueAction('pause')).status).toBe(405)
    expect(await waiting()).toBe(1)
    expect(await receiver.queue.isPaused()).toBe(false)
    // Reading still works.
    const api = await fetch(`${receiver.url}/admin/queues/api/queues`, { headers: basic(TOKEN) })
    expect(api.status).toBe(200)
  })

  it("removes a job with QUEUE_DASHBOARD_READ_ONLY=false, and the platform's retry of its webhookId is still a duplicate", async () => {
    receiver = await startReceiver(redis.url, uniquePrefix(), {
      dashboardToken: TOKEN,
      dashboardReadOnly: false,
    })
    const { body, act } = await acceptOne()
    expect((await act('clean')).status).toBe(204)
    expect(await waiting()).toBe(0)
    expect((await postSigned(receiver.webhookUrl, body)).status).toBe(200)
    expect(await waiting()).toBe(0)
  })
})
