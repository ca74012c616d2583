import { verifyCallback, SIGNATURE_HEADER } from '@pf/signing'
import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { Pool } from 'pg'
import {
  deliverNextBatch,
  formAlertBatches,
  listWatchAlerts,
  requeueFailedBatches,
  retryDelayMs,
} from '../src/watches/alerts'
import { createOutboundClient } from '@pf/provider-kit'
import { loadProviderConfig } from '../src/config'
import { migrateWatches } from '../src/watches/migrate-watches'
import { eventually } from './support-eventually'
import { startRecorder } from './support-http'
import {
  batchesOf,
  insertAlerts,
  endPool,
  insertWatch,
  payloadOf,
  silentLogger,
  testDeliverer,
} from './support-watch-alerts'

const cleanup = createCleanup()
let postgres: PostgresHandle
let pool: Pool

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  pool = cleanup.add(new Pool({ connectionString: postgres.url, max: 8 }), (p) => endPool(p, postgres.url))
  await migrateWatches(pool)
})
afterAll(() => cleanup.run())
beforeEach(() => pool.query('TRUNCATE watches CASCADE'))

/** Receivers and deliverers of one test, stopped after it. */
const perTest = createCleanup(afterEach)
const receiver = async () => perTest.add(await startRecorder(), (r) => r.close())
const deliverer = (...args: Parameters<typeof testDeliverer>) => {
  const started = testDeliverer(...args)
  started.start()
  return perTest.add(started, (d) => d.stop())
}
const sentCount = async () =>
  Number((await pool.query(`SELECT count(*) FROM watch_alert_batches WHERE status = 'sent'`)).rows[0].count)

/** One attempt at a time, as a deliverer makes them, without its loop: for counting attempts exactly. */
function attemptOnce(options: { allowPrivate?: boolean; horizonMs?: number } = {}) {
  const http = createOutboundClient({ allowPrivate: options.allowPrivate ?? true, timeoutMs: 5000 })
  return deliverNextBatch(pool, {
    post: { http, allowPrivate: options.allowPrivate ?? true, timeoutMs: 5000 },
    retry: { baseMs: 1, maxDelayMs: 2, horizonMs: options.horizonMs ?? 3_600_000 },
    logger: silentLogger,
  })
}

describe('alert delivery', () => {
  it('POSTs {watchId, batchId, sequence, sentAt, alerts} signed with alertToken as status callbacks are, verified by @pf/signing', async () => {
    const target = await receiver()
    await insertWatch(pool, 'w1', `${target.url}/alerts`, 'secret-token')
    const ids = await insertAlerts(pool, 'w1', 3)
    deliverer(pool)
    await eventually(async () => (await sentCount()) === 2)

    expect(target.requests).toHaveLength(2)
    for (const request of target.requests) {
      expect(request.headers['content-type']).toBe('application/json')
      const signature = request.headers[SIGNATURE_HEADER.toLowerCase()] as string
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/)
      expect(verifyCallback('secret-token', request.body, signature)).toBe(true)
      expect(verifyCallback('another-token', request.body, signature)).toBe(false)
    }
    const [first, second] = target.requests.map(payloadOf)
    expect(first).toEqual({
      watchId: 'w1',
      batchId: expect.any(String),
      sequence: 1,
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      alerts: ids.slice(0, 2).map((alertId, i) => ({
        alertId,
        subjectId: `s-${i}`,
        kind: 'new',
        hit: { list: 'un', entryId: String(i), score: 90 },
      })),
    })
    expect(second?.sequence).toBe(2)
    expect(second?.alerts.map((alert) => alert.alertId)).toEqual([ids[2]])
    const { rows } = await pool.query(`SELECT next_sequence FROM watches WHERE watch_id = 'w1'`)
    expect(rows[0].next_sequence).toBe('3')
  })

  it('sends batch N+1 only after N was acknowledged, when the receiver fails the first attempts; later alerts never overtake', async () => {
    const target = await receiver()
    target.behaviour.statusOf = (index) => (index < 3 ? 503 : 200)
    await insertWatch(pool, 'w1', target.url)
    await insertAlerts(pool, 'w1', 3)
    deliverer(pool)
    // Alerts generated while the first batch is being retried go in later batches.
    await eventually(() => target.requests.length >= 1)
    await insertAlerts(pool, 'w1', 2, 'removed')
    await eventually(async () => (await sentCount()) === 3)

    const sent = target.requests.map(payloadOf)
    expect(sent.map((batch) => batch.sequence)).toEqual([1, 1, 1, 1, 2, 3])
    expect(new Set(sent.slice(0, 4).map((batch) => batch.batchId)).size).toBe(1)
    expect(sent.flatMap((batch) => batch.alerts.map((alert) => alert.kind)).slice(-2)).toEqual([
      'removed',
      'removed',
    ])
    expect((await batchesOf(pool, 'w1')).map((b) => [b.sequence, b.status, b.attempts])).toEqual([
      ['1', 'sent', 4],
      ['2', 'sent', 1],
      ['3', 'sent', 1],
    ])
  })

  it('retries with backoff until the horizon, then the batch is failed with last_error; the watch waits, its later alerts listed pending, until a re-queue', async () => {
    const target = await receiver()
    target.behaviour.status = 500
    await insertWatch(pool, 'w1', target.url)
    const first = await insertAlerts(pool, 'w1', 2)
    expect(await formAlertBatches(pool, { batchSize: 10 })).toBe(1)
    // A horizon of 30 ms with delays of 1-2 ms: a few attempts, then failed.
    await eventually(async () => {
      await attemptOnce({ horizonMs: 30 })
      return (await batchesOf(pool, 'w1'))[0]?.status === 'failed'
    })
    const [failed] = await batchesOf(pool, 'w1')
    expect(failed?.last_error).toBe('alertUrl answered HTTP 500')
    expect(failed?.attempts).toBe(target.requests.length)
    expect(new Set(target.requests.map((r) => payloadOf(r).batchId))).toEqual(new Set([failed?.batch_id]))

    // Nothing overtakes the failed batch: no new batch is formed, nothing is due.
    const later = await insertAlerts(pool, 'w1', 1, 'removed')
    expect(await formAlertBatches(pool, { batchSize: 10 })).toBe(0)
    expect(await attemptOnce()).toBe(false)
    const failedList = await listWatchAlerts(pool, 'w1', { status: 'failed', limit: 10, after: 0n })
    expect(failedList.alerts.map((a) => [a.alertId, a.sequence, a.lastError])).toEqual(
      first.map((id) => [id, 1, 'alertUrl answered HTTP 500']),
    )
    const pending = await listWatchAlerts(pool, 'w1', { status: 'pending', limit: 10, after: 0n })
    expect(pending.alerts.map((a) => [a.alertId, a.batchId])).toEqual([[later[0], null]])

    // Re-queued: the failed batch first, with a whole horizon again, then the rest.
    target.behaviour.status = 200
    const before = target.requests.length
    expect(await requeueFailedBatches(pool, 'w1')).toBe(1)
    deliverer(pool)
    await eventually(async () => (await sentCount()) === 2)
    expect(target.requests.slice(before).map((r) => payloadOf(r).sequence)).toEqual([1, 2])
    expect((await listWatchAlerts(pool, 'w1', { status: 'pending', limit: 10, after: 0n })).alerts).toEqual(
      [],
    )
  })

  it('two deliverers on one database send each batch once while both are up, each watch in sequence order', async () => {
    const target = await receiver()
    for (let w = 0; w < 8; w++) {
      await insertWatch(pool, `w${w}`, `${target.url}/w${w}`)
      await insertAlerts(pool, `w${w}`, 6)
    }
    const replica = cleanup.add(new Pool({ connectionString: postgres.url, max: 4 }), (p) => p.end())
    deliverer(pool)
    deliverer(replica)
    await eventually(async () => (await sentCount()) === 24)

    const sent = target.requests.map(payloadOf)
    expect(sent).toHaveLength(24)
    expect(new Set(sent.map((batch) => batch.batchId)).size).toBe(24)
    for (let w = 0; w < 8; w++)
      expect(sent.filter((batch) => batch.watchId === `w${w}`).map((batch) => batch.sequence)).toEqual([
        1, 2, 3,
      ])
  })

  it('a deliverer stopped mid-way leaves the rest to a new one: no batch lost, none out of order', async () => {
    const target = await receiver()
    for (let w = 0; w < 4; w++) {
      await insertWatch(pool, `w${w}`, target.url)
      await insertAlerts(pool, `w${w}`, 10)
    }
    const first = testDeliverer(pool, { settings: { concurrency: 1 } })
    first.start()
    await eventually(() => target.requests.length >= 5)
    await first.stop()
    const sentByFirst = target.requests.length
    expect(sentByFirst).toBeLessThan(20)

    deliverer(pool)
    await eventually(async () => (await sentCount()) === 20)
    const sent = target.requests.map(payloadOf)
    expect(new Set(sent.map((batch) => batch.batchId)).size).toBe(20)
    for (let w = 0; w < 4; w++)
      expect(sent.filter((batch) => batch.watchId === `w${w}`).map((batch) => batch.sequence)).toEqual([
        1, 2, 3, 4, 5,
      ])
  })

  it('a replica killed mid-send leaves its batch to another, sent again with the same batchId (at least once)', async () => {
    const target = await receiver()
    target.behaviour.statusOf = (index) => (index === 0 ? 'hang' : 200)
    await insertWatch(pool, 'w1', target.url)
    await insertAlerts(pool, 'w1', 2)
    const killed = cleanup.add(
      new Pool({ connectionString: postgres.url, max: 4, application_name: 'replica-killed' }),
      (p) => p.end(),
    )
    killed.on('error', () => {}) // its sessions are ended under it
    deliverer(killed, { settings: { concurrency: 1 }, outbound: { allowPrivate: true, timeoutMs: 1000 } })
    await eventually(() => target.requests.length === 1)
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'replica-killed'`,
    )

    deliverer(pool)
    await eventually(async () => (await sentCount()) === 1)
    const [lost, resent] = target.requests.map(payloadOf)
    expect(resent?.batchId).toBe(lost?.batchId)
    expect(resent?.sequence).toBe(1)
    expect((await batchesOf(pool, 'w1'))[0]?.status).toBe('sent')
  })

  it('outbound safety at every send: a private address or a name resolving to one is refused and recorded, never reached', async () => {
    const target = await receiver()
    await insertWatch(pool, 'literal', `http://127.0.0.1:${target.port}/alerts`)
    await insertWatch(pool, 'named', `http://localhost:${target.port}/alerts`)
    await insertAlerts(pool, 'literal', 1)
    await insertAlerts(pool, 'named', 1)
    expect(await formAlertBatches(pool, { batchSize: 10 })).toBe(2)
    expect(await attemptOnce({ allowPrivate: false })).toBe(true)
    expect(await attemptOnce({ allowPrivate: false })).toBe(true)

    expect(target.requests).toHaveLength(0)
    const recorded = [...(await batchesOf(pool, 'literal')), ...(await batchesOf(pool, 'named'))]
    expect(recorded.map((b) => [b.status, b.attempts, b.last_error])).toEqual([
      ['pending', 1, 'alertUrl points at a non-public address'],
      ['pending', 1, 'alertUrl resolves to a non-public address'],
    ])
  })
})

describe('retryDelayMs', () => {
  it('doubles from the base at each failure, capped at the longest delay, with up to half taken off at random', () => {
    const policy = { baseMs: 1000, maxDelayMs: 10_000 }
    expect([1, 2, 3, 4, 5, 60].map((n) => retryDelayMs(n, policy, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ])
    expect([1, 2, 5].map((n) => retryDelayMs(n, policy, () => 0))).toEqual([500, 1000, 5000])
  })
})

describe('WATCH_ALERT_* settings', () => {
  it('default to batches of 100, 4 at once, a poll a second, retries from 1 s doubling to 10 min for a day', () => {
    expect(loadProviderConfig({}).watchAlerts).toEqual({
      batchSize: 100,
      concurrency: 4,
      pollMs: 1000,
      retry: { baseMs: 1000, maxDelayMs: 600_000, horizonMs: 86_400_000 },
    })
    expect(loadProviderConfig({ WATCH_ALERT_RETRY_HORIZON_SECONDS: '60' }).watchAlerts?.retry.horizonMs).toBe(
      60_000,
    )
  })

  it('refuse a batch size past 1000, a horizon of 0 and a longest delay below the first', () => {
    for (const [name, value] of [
      ['WATCH_ALERT_BATCH_SIZE', '1001'],
      ['WATCH_ALERT_RETRY_HORIZON_SECONDS', '0'],
      ['WATCH_ALERT_RETRY_MAX_DELAY_MS', '500'],
    ] as const)
      expect(() => loadProviderConfig({ [name]: value })).toThrow(name)
  })
})
