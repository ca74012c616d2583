import type { EventConsumer } from '../src/queue'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { WEBHOOK_EVENT_KINDS, type WebhookEvent } from '@pf/schemas'
import { UnrecoverableWebhookError, type WebhookHandlers } from '@pf/schemas'
import { listDeadLetters, replayDeadLetters } from '../src/worker/dead-letters'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import {
  workerConnection,
  makeEvent,
  postSigned,
  startReceiver,
  uniquePrefix,
  waitFor,
  workerDefaults,
  type StartedReceiver,
  json,
} from './support'

let redis: RedisHandle
let receiver: StartedReceiver
let prefix: string
const running: { worker: EventConsumer; connection: ReturnType<typeof workerConnection> }[] = []

function startWorker(handlers: WebhookHandlers) {
  const connection = workerConnection(redis.url)
  connection.on('error', () => {})
  const worker = createWebhookWorker({ ...workerDefaults, connection, prefix, handlers })
  worker.on('error', () => {})
  running.push({ worker, connection })
  return worker
}

beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
beforeEach(async () => {
  prefix = uniquePrefix()
  receiver = await startReceiver(redis.url, prefix)
})
afterEach(async () => {
  for (const { worker, connection } of running.splice(0)) {
    await worker.close()
    connection.disconnect()
  }
  await receiver.stop()
})
afterAll(() => redis.stop())

const send = (event: object) => postSigned(receiver.webhookUrl, JSON.stringify(event))

/** A worker recording the webhookId of each session.created it handles, seen handling one already. */
async function startRecordingWorker() {
  const handled: string[] = []
  startWorker({ 'session.created': async (event) => void handled.push(event.webhookId) })
  await send(makeEvent('session.created'))
  await waitFor(() => handled.length === 1)
  return handled
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the worker hands each event to the handler of its kind', () => {
  it('runs each of the five kinds exactly once, also when the platform redelivers (spec, rules 2 and 3)', async () => {
    const seen: WebhookEvent[] = []
    const record = async (event: WebhookEvent) => void seen.push(event)
    startWorker(Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, record])))
    const events = WEBHOOK_EVENT_KINDS.map((kind) => makeEvent(kind))
    for (const event of events) expect((await send(event)).status).toBe(200)
    for (const event of events) expect((await send(event)).status).toBe(200)
    await waitFor(() => seen.length >= 5, 5000, 'five events')
    await pause(300)
    expect(seen.map((e) => e.event).sort()).toEqual([...WEBHOOK_EVENT_KINDS].sort())
    expect(seen.map((e) => e.webhookId).sort()).toEqual(events.map((e) => e.webhookId).sort())
    expect(seen.find((e) => e.event === 'purchase.failed')?.data).toMatchObject({
      errorCode: 'INSUFFICIENT_BALANCE',
    })
  })

  it('completes events of a kind that has no handler', async () => {
    startWorker({})
    await send(makeEvent('session.ended'))
    await waitFor(async () => (await receiver.queue.getJobCounts('waiting', 'active')).waiting === 0)
  })

  it('passes the attempt number, the job id and a bound logger in the context', async () => {
    const contexts: unknown[] = []
    startWorker({ 'session.created': async (_event, context) => void contexts.push(context) })
    await send(makeEvent('session.created'))
    await waitFor(() => contexts.length === 1)
    expect(contexts[0]).toMatchObject({ attempt: 1, maxAttempts: 3, jobId: expect.any(String) })
  })
})

describe('retries and dead letters', () => {
  it('retries a handler that throws, with backoff, until it succeeds', async () => {
    const attempts: number[] = []
    startWorker({
      'purchase.completed': async (_event, { attempt }) => {
        attempts.push(attempt)
        if (attempt < 3) throw new Error('downstream unavailable')
      },
    })
    await send(makeEvent('purchase.completed'))
    await waitFor(() => attempts.length === 3, 5000, 'three attempts')
    await waitFor(async () => (await receiver.queue.getJobCounts('completed', 'failed')).failed === 0)
    expect(attempts).toEqual([1, 2, 3])
    expect(await listDeadLetters(receiver.queue)).toEqual([])
  })

  it('stops at once on an unrecoverable error; the dead letter can be listed and replayed', async () => {
    let calls = 0
    let fixed = false
    startWorker({
      'purchase.failed': async () => {
        calls += 1
        if (!fixed) throw new UnrecoverableWebhookError('bad item id')
      },
    })
    const event = makeEvent('purchase.failed')
    await send(event)
    await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 1, 5000, 'a dead letter')
    const [letter] = await listDeadLetters(receiver.queue)
    expect(letter).toMatchObject({
      webhookId: event.webhookId,
      event: 'purchase.failed',
      reason: 'handler_failed',
      failedReason: 'bad item id',
    })
    expect(calls).toBe(1)

    fixed = true
    expect((await replayDeadLetters(receiver.queue, event.webhookId)).replayed).toHaveLength(1)
    await waitFor(() => calls === 2, 5000, 'the replay')
    await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 0)
  })

  it('dead-letters a job after its last attempt, and replays all of them with a fresh retry budget', async () => {
    let failing = true
    const handled: string[] = []
    startWorker({
      'session.ended': async (event) => {
        if (failing) throw new Error('still broken')
        handled.push(event.webhookId)
      },
    })
    await send(makeEvent('session.ended'))
    await send(makeEvent('session.ended'))
    await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 2, 5000, 'two dead letters')
    expect((await listDeadLetters(receiver.queue))[0]?.attempts).toBe(3)
    failing = false
    expect((await replayDeadLetters(receiver.queue)).replayed).toHaveLength(2)
    await waitFor(() => handled.length === 2, 5000, 'both replays')
  })

  it('dead-letters a stored job that does not match the schema, without retrying; replay keeps it while it still fails', async () => {
    let calls = 0
    startWorker({ 'session.created': async () => void (calls += 1) })
    await receiver.queue.add('session.created', { event: 'session.created', webhookId: 'wh_x' })
    await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 1)
    const [letter] = await listDeadLetters(receiver.queue)
    expect(letter?.failedReason).toMatch(/^invalid event: timestamp is required/)
    expect(letter?.attempts).toBe(1)
    expect(calls).toBe(0)
    expect(await replayDeadLetters(receiver.queue, 'wh_x')).toEqual({
      replayed: [],
      stillInvalid: [
        expect.objectContaining({ webhookId: 'wh_x', errors: expect.stringMatching(/timestamp/) }),
      ],
    })
    expect(await listDeadLetters(receiver.queue)).toHaveLength(1)
  })
})

describe('Redis going away loses nothing and heals by itself', () => {
  it('answers 503 {error} fast while Redis is down, then 200; the worker resumes', async () => {
    if (!redis.isPrivate) return // a shared Redis cannot be stopped by a test
    const handled = await startRecordingWorker()

    await redis.stop()
    const whileDown = makeEvent('session.created')
    const res = await send(whileDown) // postSigned aborts after 4.5 s: inside the platform's 5 s budget
    expect(res.status).toBe(503)
    expect(Object.keys(await json(res))).toEqual(['error'])
    expect((await fetch(`${receiver.url}/ready`)).status).toBe(503)
    expect((await fetch(`${receiver.url}/health`)).status).toBe(200)

    await redis.start()
    // The platform retries the 503'd delivery; once Redis is back it is accepted and processed.
    await waitFor(async () => (await send(whileDown)).status === 200, 15_000, 'the receiver to recover')
    await waitFor(() => handled.includes(whileDown.webhookId), 15_000, 'the worker to recover')
  })
})

describe('Redis frozen (connections open, nothing answered) stalls nothing', () => {
  it('answers 503 within the enqueue time-out (spec: answer within 5 s), keeps /health up, and stores each event once after Redis thaws and the platform retries', async () => {
    if (!redis.isPrivate) return // a shared Redis cannot be frozen by a test
    const handled = await startRecordingWorker()

    redis.pause()
    const events = Array.from({ length: 5 }, () => makeEvent('session.created'))
    let statuses: number[]
    try {
      // postSigned aborts after 4.5 s: each answer must come from the receiver's own time-out first.
      const answers = await Promise.all(events.map((event) => send(event)))
      statuses = answers.map((res) => res.status)
      expect(Object.keys(await json(answers[0]!))).toEqual(['error'])
      expect((await fetch(`${receiver.url}/health`)).status).toBe(200)
      expect((await fetch(`${receiver.url}/ready`)).status).toBe(503)
    } finally {
      redis.resume()
    }
    expect(statuses).toEqual([503, 503, 503, 503, 503])

    // The enqueues that timed out may still land once Redis runs again; the retries are then duplicates.
    for (const event of events)
      await waitFor(
        async () => (await send(event)).status === 200,
        15_000,
        'the receiver to accept the retry',
      )
    await waitFor(() => events.every((event) => handled.includes(event.webhookId)), 15_000, 'the worker')
    await waitFor(async () => {
      const counts = await receiver.queue.getJobCounts('waiting', 'active', 'delayed')
      return Object.values(counts).every((count) => count === 0)
    })
    for (const event of events) expect(handled.filter((id) => id === event.webhookId)).toHaveLength(1)
  })
})

describe('context.once: exactly-once effects over at-least-once handlers', () => {
  it('runs an effect once per key across deliveries with different webhookIds', async () => {
    const effects: string[] = []
    const outcomes: boolean[] = []
    startWorker({
      'purchase.completed': async (event, { once }) => {
        outcomes.push(
          await once(`grant:${event.data.idempotencyKey}`, async () => void effects.push(event.webhookId)),
        )
      },
    })
    const first = makeEvent('purchase.completed')
    // The platform sends the same purchase again as a new delivery (a new webhookId, the same idempotencyKey).
    const again = { ...makeEvent('purchase.completed'), data: first.data }
    expect((await send(first)).status).toBe(200)
    await waitFor(() => outcomes.length === 1, 5000, 'the first delivery')
    expect((await send(again)).status).toBe(200)
    await waitFor(() => outcomes.length === 2, 5000, 'the second delivery')
    expect(outcomes).toEqual([true, false])
    expect(effects).toEqual([first.webhookId])
  })

  it('releases the key when the effect throws, so the retry runs it', async () => {
    let calls = 0
    const applied: number[] = []
    startWorker({
      'purchase.completed': async (event, { once }) => {
        await once(`grant:${event.data.purchaseId}`, async () => {
          calls += 1
          if (calls === 1) throw new Error('payment service down')
          applied.push(calls)
        })
      },
    })
    expect((await send(makeEvent('purchase.completed'))).status).toBe(200)
    await waitFor(() => applied.length === 1, 5000, 'the retry')
    expect(applied).toEqual([2])
  })

  it('refuses an empty or oversized key with a TypeError (a handler bug, not a retry)', async () => {
    const errors: string[] = []
    startWorker({
      'session.ended': async (_event, { once }) => {
        for (const key of ['', 'k'.repeat(513)])
          await once(key, async () => {}).catch((error: Error) => void errors.push(error.name))
      },
    })
    expect((await send(makeEvent('session.ended'))).status).toBe(200)
    await waitFor(() => errors.length === 2, 5000, 'the handler')
    expect(errors).toEqual(['TypeError', 'TypeError'])
  })
})
