import { createCleanup } from '@pf/testkit'
import { startPostgres } from '@pf/testkit/postgres'
import { Pool } from 'pg'
import { migrateWatches } from '../src/watches/migrate-watches'
import { eventually } from './support-eventually'
import { API_KEY, startProvider, startRecorder, startStore, type StartedProvider } from './support-http'
import type { AlertPage } from '../src/watches/alerts'
import { startWatchProvider } from './support-watches'
import { batchesOf, endPool, insertAlerts, insertWatch, payloadOf } from './support-watch-alerts'

// GET /api/watches/{watchId}/alerts and POST …/alerts/retry through the provider, whose start() runs the
// alert deliverer on the watches database.
const cleanup = createCleanup()
let pool: Pool
let provider: StartedProvider
let withoutDatabase: StartedProvider
let receiver: Awaited<ReturnType<typeof startRecorder>>

beforeAll(async () => {
  const postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  pool = cleanup.add(new Pool({ connectionString: postgres.url, max: 6 }), (p) => endPool(p, postgres.url))
  await migrateWatches(pool)
  const store = cleanup.add(await startStore(), (s) => s.stop())
  receiver = cleanup.add(await startRecorder(), (r) => r.close())
  const watchAlerts = {
    batchSize: 2,
    concurrency: 2,
    pollMs: 10,
    retry: { baseMs: 1, maxDelayMs: 2, horizonMs: 50 },
  }
  provider = cleanup.add(await startWatchProvider(store, postgres.url, { watchAlerts }), (p) => p.stop())
  withoutDatabase = cleanup.add(await startProvider(store), (p) => p.stop())
})
afterAll(() => cleanup.run())

async function call(base: string, method: string, path: string) {
  const res = await fetch(`${base}${path}`, { method, headers: { 'x-pf-api-key': API_KEY } })
  return { status: res.status, body: (await res.json()) as AlertPage & { error?: string; requeued?: number } }
}

describe('GET /api/watches/{watchId}/alerts and POST …/alerts/retry', () => {
  it('lists a failed batch and the alerts waiting behind it, cursor-paginated; a retry sends them all in sequence order', async () => {
    receiver.behaviour.status = 500
    await insertWatch(pool, 'w1', receiver.url)
    const failed = await insertAlerts(pool, 'w1', 2)
    await eventually(async () => (await batchesOf(pool, 'w1'))[0]?.status === 'failed')
    const waiting = await insertAlerts(pool, 'w1', 5, 'changed')

    const failedPage = await call(provider.url, 'GET', '/api/watches/w1/alerts?status=failed')
    expect(failedPage.status).toBe(200)
    expect(failedPage.body).toMatchObject({ watchId: 'w1', status: 'failed', nextCursor: null })
    expect(failedPage.body.alerts.map((a) => [a.alertId, a.sequence, a.lastError])).toEqual(
      failed.map((id) => [id, 1, 'alertUrl answered HTTP 500']),
    )
    const listed: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await call(
        provider.url,
        'GET',
        `/api/watches/w1/alerts?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      )
      expect(page.status).toBe(200)
      listed.push(...page.body.alerts.map((a) => a.alertId))
      cursor = page.body.nextCursor
      pages++
    } while (cursor !== null)
    expect(listed).toEqual(waiting)
    expect(pages).toBe(3)

    receiver.behaviour.status = 200
    const before = receiver.requests.length
    expect(await call(provider.url, 'POST', '/api/watches/w1/alerts/retry')).toEqual({
      status: 200,
      body: { watchId: 'w1', requeued: 1 },
    })
    await eventually(async () => (await batchesOf(pool, 'w1')).length === 4)
    await eventually(async () => (await batchesOf(pool, 'w1')).every((b) => b.status === 'sent'))
    const resent = receiver.requests.slice(before).map(payloadOf)
    expect(resent.map((batch) => batch.sequence)).toEqual([1, 2, 3, 4])
    expect(resent.flatMap((batch) => batch.alerts.map((alert) => alert.alertId))).toEqual([
      ...failed,
      ...waiting,
    ])
    for (const status of ['pending', 'failed'])
      expect(
        (await call(provider.url, 'GET', `/api/watches/w1/alerts?status=${status}`)).body.alerts,
      ).toEqual([])
  })

  it('refuses a bad status, limit or cursor with a JSON 400, and an unknown watch with a 404', async () => {
    for (const query of ['status=sent', 'limit=0', 'limit=1001', 'limit=x', 'cursor=abc', 'cursor=-1']) {
      const answer = await call(provider.url, 'GET', `/api/watches/w1/alerts?${query}`)
      expect([query, answer.status, typeof answer.body.error]).toEqual([query, 400, 'string'])
    }
    expect((await call(provider.url, 'GET', '/api/watches/nobody/alerts')).status).toBe(404)
    expect((await call(provider.url, 'POST', '/api/watches/nobody/alerts/retry')).status).toBe(404)
  })

  it('answers 501 naming the setting without a watches database', async () => {
    for (const [method, path] of [
      ['GET', '/api/watches/w1/alerts'],
      ['POST', '/api/watches/w1/alerts/retry'],
    ] as const) {
      const answer = await call(withoutDatabase.url, method, path)
      expect(answer.status).toBe(501)
      expect(answer.body.error).toContain('WATCHES_DATABASE_URL')
    }
  })
})
