import type { EventConsumer } from '../src/queue'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { WEBHOOK_EVENT_KINDS, type WebhookEvent } from '@pf/schemas'
import { quarantineKeys } from '../src/queue/quarantine/quarantine'
import { listDeadLetters, replayDeadLetters } from '../src/worker/dead-letters'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import {
  json,
  makeEvent,
  postSigned,
  startReceiver,
  uniquePrefix,
  waitFor,
  workerConnection,
  workerDefaults,
  type StartedReceiver,
} from './support'

// Guide, "Refusals": the platform signs its webhooks, so a verified event is never answered 4xx for its content
// (the platform would retry for 7 hours, then drop it). It is kept, quarantined, and said why.
let redis: RedisHandle
let receiver: StartedReceiver
let worker: { worker: EventConsumer; disconnect(): void } | undefined
/** Every event a handler saw, of any kind. */
let handled: WebhookEvent[]

beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
beforeEach(async () => {
  handled = []
  receiver = await startReceiver(redis.url, uniquePrefix())
})
afterEach(async () => {
  if (worker) {
    await worker.worker.close()
    worker.disconnect()
    worker = undefined
  }
  await receiver.stop()
})
afterAll(() => redis.stop())

function startWorker(failing: string[] = []) {
  const connection = workerConnection(redis.url)
  const record = async (event: WebhookEvent) => {
    if (failing.includes(event.event)) throw new Error('handler down')
    handled.push(event)
  }
  const instance = createWebhookWorker({
    ...workerDefaults,
    connection,
    prefix: receiver.queue.opts.prefix as string,
    handlers: Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, record])),
  })
  worker = { worker: instance, disconnect: () => connection.disconnect() }
}

const send = (body: unknown) =>
  postSigned(receiver.webhookUrl, typeof body === 'string' ? body : JSON.stringify(body))

/** Jobs waiting for the worker. */
const waiting = async () => (await receiver.queue.getJobCounts('waiting')).waiting

/** The quarantined events, newest first, as `dead-letters list` shows them. */
const quarantined = async () =>
  (await listDeadLetters(receiver.queue)).filter((letter) => letter.reason !== 'handler_failed')

/** Sends a valid event and waits for its handler: anything sent before it that was handed on was seen. */
async function drained() {
  const control = makeEvent('session.ended')
  expect((await send(control)).status).toBe(200)
  await waitFor(() => handled.some((event) => event.webhookId === control.webhookId), 10_000, 'the worker')
  return handled.filter((event) => event.webhookId !== control.webhookId)
}

/**
 * A dead letter first (a purchase.failed whose handler fails), then `flood`, quarantined: resolves with the
 * webhookIds the quarantine kept, newest first, once it has checked that the dead letter is still there.
 */
async function keptOfFloodAfterDeadLetter(flood: { webhookId: string }[]) {
  startWorker(['purchase.failed'])
  const failing = makeEvent('purchase.failed')
  expect((await send(failing)).status).toBe(200)
  await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 1, 10_000, 'a dead letter')
  for (const event of flood) expect((await send(event)).status).toBe(200)
  expect((await listDeadLetters(receiver.queue)).filter((l) => l.reason === 'handler_failed')).toEqual([
    expect.objectContaining({ webhookId: failing.webhookId }),
  ])
  return (await quarantined()).map((letter) => letter.webhookId)
}
/** The webhookIds of the last `count` events, newest first. */
const newest = (events: { webhookId: string }[], count: number) =>
  events
    .slice(-count)
    .map((event) => event.webhookId)
    .reverse()

const created = makeEvent('session.created')
const data = created.data as Record<string, unknown>
const withData = (changes: Record<string, unknown>) =>
  makeEvent('session.created', { data: { ...data, ...changes } })
const without = (field: string) => {
  const { [field]: _dropped, ...rest } = data
  return makeEvent('session.created', { data: rest })
}

describe('a verified event is never answered 4xx for its content (guide, "Refusals"; issue 22)', () => {
  it.each([
    ['email: null', withData({ email: null }), /data\.email is required/],
    ['no email', without('email'), /data\.email is required/],
    ['orgId: ""', withData({ orgId: '' }), /data\.orgId must not be empty/],
    [
      'a startTime without a zone',
      withData({ startTime: '2026-11-21T10:15:30' }),
      /data\.startTime must match format/,
    ],
    ['a missing field (tokenCost)', without('tokenCost'), /data\.tokenCost is required/],
  ])(
    'answers 200 {received: true} to a session.created with %s, quarantined as invalid_data with the errors, never handed to a handler',
    async (_case, event, errors) => {
      startWorker()
      const res = await send(event)
      expect([res.status, await json(res)]).toEqual([200, { received: true }])
      expect(await drained()).toEqual([])
      expect(await quarantined()).toEqual([
        expect.objectContaining({
          webhookId: event.webhookId,
          event: 'session.created',
          reason: 'invalid_data',
          failedReason: expect.stringMatching(errors),
        }),
      ])
    },
  )

  it('hands on a session.created with an extra field (the platform may add fields)', async () => {
    startWorker()
    const event = withData({ locale: 'fr-FR' })
    expect((await send(event)).status).toBe(200)
    expect((await drained()).map((seen) => seen.webhookId)).toEqual([event.webhookId])
    expect(await quarantined()).toEqual([])
  })

  it.each([
    [
      'an unknown event kind (spec, receiver rule 4: not processed, with a warning)',
      { event: 'session.paused' },
      /unknown event kind "session\.paused"/,
    ],
    ['no event', { event: undefined }, /event is required/],
    ['no timestamp', { timestamp: undefined }, /timestamp is required/],
    [
      'a webhookId without the wh_ prefix (still one to deduplicate on)',
      { webhookId: 'evt_1' },
      /webhookId must match/,
    ],
  ])('answers 200 to %s, quarantined as invalid_data', async (_case, overrides, errors) => {
    startWorker()
    const event = makeEvent('session.extended', overrides)
    expect((await send(event)).status).toBe(200)
    expect(await drained()).toEqual([])
    expect(await quarantined()).toEqual([
      expect.objectContaining({ reason: 'invalid_data', failedReason: expect.stringMatching(errors) }),
    ])
  })

  it('deduplicates quarantined events by webhookId like any other (spec, receiver rule 3)', async () => {
    const event = withData({ email: null })
    for (let i = 0; i < 3; i += 1) expect((await send(event)).status).toBe(200)
    expect(await quarantined()).toHaveLength(1)
    // …and a quarantined webhookId is not accepted later in another form either.
    expect((await send({ ...created, webhookId: event.webhookId })).status).toBe(200)
    expect(await waiting()).toBe(0)
  })

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"session.created"'],
    ['null', 'null'],
    ['no webhookId', JSON.stringify(makeEvent('session.created', { webhookId: undefined }))],
    ['a webhookId that is not a string', JSON.stringify(makeEvent('session.created', { webhookId: 42 }))],
    ['an empty webhookId', JSON.stringify(makeEvent('session.created', { webhookId: '' }))],
    [
      'a webhookId over 200 characters',
      JSON.stringify(makeEvent('session.created', { webhookId: `wh_${'x'.repeat(198)}` })),
    ],
  ])('keeps 400 {error} for a body that is %s: nothing to deduplicate on', async (_case, body) => {
    const res = await send(body)
    expect(res.status).toBe(400)
    expect(Object.keys(await json(res))).toEqual(['error'])
    expect(await quarantined()).toEqual([])
  })
})

describe('quarantined events have their own retention (WEBHOOK_KEEP_QUARANTINED)', () => {
  it('keeps the newest ones, and a flood of them never evicts a handler failure (a dead letter)', async () => {
    await receiver.stop()
    receiver = await startReceiver(redis.url, uniquePrefix(), { keepQuarantined: 3, keepFailed: 1 })
    const flood = Array.from({ length: 6 }, () => withData({ email: null }))
    expect(await keptOfFloodAfterDeadLetter(flood)).toEqual(newest(flood, 3))
  })
})

describe('the quarantine is bounded by bytes too (WEBHOOK_QUARANTINE_MAX_BYTES, issue 35)', () => {
  const KiB = 1024
  /** A stale purchase.completed of about 20 KiB: valid data, so that replay hands it on. */
  const heavy = () =>
    makeEvent('purchase.completed', {
      timestamp: '2020-01-01T00:00:00Z',
      data: { ...makeEvent('purchase.completed').data, note: 'x'.repeat(20 * KiB) },
    })
  /** What Redis holds: each entry's recorded size, and the total the store keeps of them. */
  async function held() {
    const client = await receiver.queue.client
    const keys = quarantineKeys(receiver.queue)
    const ids = await client.zrange(keys.index, 0, -1)
    const sizes = await Promise.all(ids.map(async (id) => Number(await client.hget(keys.entry(id), 'bytes'))))
    return { sizes, total: Number(await client.get(keys.bytes)) }
  }

  it('keeps the newest events that fit in the bytes, and a flood of large ones never evicts a dead letter', async () => {
    await receiver.stop()
    receiver = await startReceiver(redis.url, uniquePrefix(), { quarantineMaxBytes: 64 * KiB, keepFailed: 1 })
    const flood = Array.from({ length: 6 }, heavy)
    // Three of about 20.5 KiB fit in 64 KiB, four would not.
    expect(await keptOfFloodAfterDeadLetter(flood)).toEqual(newest(flood, 3))
    const { sizes, total } = await held()
    expect(sizes.every((size) => size > 20 * KiB)).toBe(true)
    expect(total).toBe(sizes.reduce((a, b) => a + b, 0))
    expect(total).toBeLessThanOrEqual(64 * KiB)
  })

  it('keeps the newest event whatever its size, and frees the bytes of one replayed', async () => {
    await receiver.stop()
    receiver = await startReceiver(redis.url, uniquePrefix(), { quarantineMaxBytes: 16 * KiB })
    const [first, second] = [heavy(), heavy()]
    for (const event of [first, second]) expect((await send(event)).status).toBe(200)
    expect((await quarantined()).map((letter) => letter.webhookId)).toEqual([second.webhookId])
    const before = await held()
    expect(before.total).toBe(before.sizes[0])

    expect((await replayDeadLetters(receiver.queue, second.webhookId)).replayed).toHaveLength(1)
    expect(await held()).toEqual({ sizes: [], total: 0 })
  })

  it('keeps the event kind and the reason to 200 and 2000 characters: a listing reads them all', async () => {
    const event = makeEvent('session.created', { event: `session.${'y'.repeat(5000)}` })
    expect((await send(event)).status).toBe(200)
    const [letter] = await quarantined()
    expect(letter).toMatchObject({ webhookId: event.webhookId, reason: 'invalid_data' })
    expect([letter!.event.length, letter!.failedReason.length]).toEqual([200, 2000])
    expect(letter!.event.endsWith('…')).toBe(true)
  })
})

describe('a captured delivery cannot be replayed after the dedup window (WEBHOOK_MAX_AGE_SECONDS)', () => {
  const MAX_AGE_S = 7 * 24 * 3600 - 3600
  const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString()

  it.each([
    ['older than WEBHOOK_MAX_AGE_SECONDS', 'stale', -(MAX_AGE_S + 60) * 1000],
    ['more than 5 minutes in the future', 'future', 6 * 60_000],
  ])(
    'answers 200 to an event %s and quarantines it as %s, never processed',
    async (_case, reason, offset) => {
      startWorker()
      const event = makeEvent('purchase.completed', { timestamp: at(offset) })
      expect((await send(event)).status).toBe(200)
      expect(await drained()).toEqual([])
      expect(await quarantined()).toEqual([expect.objectContaining({ webhookId: event.webhookId, reason })])
    },
  )

  // Issue 35: the schema accepts date-times Date.parse cannot read; an age of NaN passed both comparisons.
  /** The instant `offsetMs` from now, written at +01 with an hour-only offset: `2026-11-21T13:00:00.000+01`. */
  const atHourOnlyOffset = (offsetMs: number) => at(offsetMs + 3_600_000).replace('Z', '+01')

  it.each([
    [
      'an hour-only offset older than WEBHOOK_MAX_AGE_SECONDS',
      'stale',
      atHourOnlyOffset(-(MAX_AGE_S + 60) * 1000),
    ],
    ['a leap second years ago', 'stale', '2016-12-31T23:59:60Z'],
    ['an hour-only offset 6 minutes ahead', 'future', atHourOnlyOffset(6 * 60_000)],
  ])(
    'reads a timestamp with %s as the schema accepts it: quarantined as %s, never handled as fresh (issue 35)',
    async (_case, reason, timestamp) => {
      startWorker()
      const event = makeEvent('purchase.completed', { timestamp })
      expect((await send(event)).status).toBe(200)
      expect(await drained()).toEqual([])
      expect(await quarantined()).toEqual([
        expect.objectContaining({
          webhookId: event.webhookId,
          reason,
          failedReason: expect.stringContaining(timestamp),
        }),
      ])
    },
  )

  it('hands on a fresh event whose timestamp has an hour-only offset (issue 35)', async () => {
    startWorker()
    const event = makeEvent('purchase.completed', { timestamp: atHourOnlyOffset(-60_000) })
    expect((await send(event)).status).toBe(200)
    expect((await drained()).map((seen) => seen.webhookId)).toEqual([event.webhookId])
    expect(await quarantined()).toEqual([])
  })

  it("hands on the platform's last retry (7 h 12 min 30 s after the event) and an event 4 minutes ahead of our clock", async () => {
    startWorker()
    const lastRetry = makeEvent('purchase.completed', { timestamp: at(-(7 * 3600 + 12 * 60 + 30) * 1000) })
    const ahead = makeEvent('purchase.completed', { timestamp: at(4 * 60_000) })
    const justInside = makeEvent('purchase.completed', { timestamp: at(-(MAX_AGE_S - 60) * 1000) })
    for (const event of [lastRetry, ahead, justInside]) expect((await send(event)).status).toBe(200)
    expect((await drained()).map((seen) => seen.webhookId).sort()).toEqual(
      [lastRetry, ahead, justInside].map((event) => event.webhookId).sort(),
    )
    expect(await quarantined()).toEqual([])
  })
})

describe('the dedup marker outlives the job (issue 22)', () => {
  it.each([
    ['the batched enqueue', false],
    ['the Queue.add fallback', true],
  ])(
    '%s: a job removed by hand (job.remove, Queue.clean) leaves its webhookId a duplicate',
    async (_path, viaQueueAdd) => {
      await receiver.stop()
      receiver = await startReceiver(redis.url, uniquePrefix(), { viaQueueAdd })
      const removed = makeEvent('session.created')
      const cleaned = makeEvent('session.ended')
      for (const event of [removed, cleaned]) expect((await send(event)).status).toBe(200)
      const [job] = (await receiver.queue.getJobs(['waiting'])).filter((j) => j.name === 'session.created')
      await job!.remove()
      expect(await receiver.queue.clean(0, 100, 'wait')).toHaveLength(1)
      expect(await waiting()).toBe(0)

      for (const event of [removed, cleaned]) expect((await send(event)).status).toBe(200)
      expect(await waiting()).toBe(0)
    },
  )
})
