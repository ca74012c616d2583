import type { EventConsumer } from '../src/queue'
import { createHash, randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue } from 'bullmq'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import type { HandlerContext, WebhookEvent } from '@pf/schemas'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import { listDeadLetters, replayDeadLetters } from '../src/worker/dead-letters'
import {
  postSigned,
  startReceiver,
  uniquePrefix,
  waitFor,
  workerConnection,
  workerDefaults,
  type StartedReceiver,
} from './support'

// WEBHOOK_ORDERING=session (issue 38): one event of a session at a time, in signed-timestamp order. One Redis for
// the file; the last test runs the built worker (dist/), two processes, one of them killed.
const dist = join(__dirname, '..', 'dist')
let redis: RedisHandle
let receiver: StartedReceiver
let prefix: string
const workers: { worker: EventConsumer; connection: ReturnType<typeof workerConnection> }[] = []
const processes: ServiceProcess[] = []

beforeAll(async () => {
  if (!existsSync(join(dist, 'worker.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
beforeEach(async () => {
  prefix = uniquePrefix()
  receiver = await startReceiver(redis.url, prefix, { ordering: 'session' })
})
afterEach(async () => {
  for (const service of processes.splice(0)) await service.stop('SIGKILL')
  for (const { worker, connection } of workers.splice(0)) {
    await worker.close()
    connection.disconnect()
  }
  await receiver.stop()
})
afterAll(() => redis.stop())

type Handler = (event: WebhookEvent<'purchase.completed'>, context: HandlerContext) => Promise<void>

function startWorker(
  handle: Handler,
  concurrency = 5,
  ordering: 'session' | 'off' = 'session',
  timing: Partial<Pick<typeof workerDefaults, 'lockDurationMs' | 'lockRenewMs' | 'stalledIntervalMs'>> = {},
) {
  const connection = workerConnection(redis.url)
  connection.on('error', () => {})
  const worker = createWebhookWorker({
    ...workerDefaults,
    ...timing,
    concurrency,
    connection,
    prefix,
    ordering,
    handlers: { 'purchase.completed': handle },
  })
  worker.on('error', () => {})
  workers.push({ worker, connection })
}

const base = Date.now() - 60_000
const at = (second: number) => new Date(base + second * 1000).toISOString()
/** A purchase.completed of `session` signed at `second` past the base time. */
const event = (session: string, second: number, webhookId = `wh_${randomUUID()}`) =>
  createWebhookEvent('purchase.completed', { data: { sessionId: session }, webhookId, timestamp: at(second) })
type Sent = ReturnType<typeof event>

async function send(...events: Sent[]) {
  for (const sent of events)
    expect((await postSigned(receiver.webhookUrl, JSON.stringify(sent))).status).toBe(200)
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const shuffled = <T>(items: T[]) =>
  items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item)

describe('WEBHOOK_ORDERING=session: a session’s events one at a time, in signed-timestamp order (issue 38)', () => {
  it('hands each session’s events in timestamp order (ties by webhookId), never two at once, sessions in parallel', async () => {
    const sessions = ['s-a', 's-b', 's-c']
    const events = sessions.flatMap((session) => [1, 2, 3, 4, 5, 6].map((second) => event(session, second)))
    // The same signed timestamp twice: the smaller webhookId first.
    events.push(event('s-a', 7, 'wh_tie_b'), event('s-a', 7, 'wh_tie_a'))
    await send(...shuffled(events))

    const seen = new Map<string, string[]>()
    const running = new Map<string, number>()
    let overlaps = 0
    let now = 0
    let most = 0
    const lates: unknown[] = []
    startWorker(async (purchase, { late }) => {
      const session = purchase.data.sessionId
      running.set(session, (running.get(session) ?? 0) + 1)
      if (running.get(session)! > 1) overlaps += 1
      most = Math.max(most, (now += 1))
      seen.set(session, [...(seen.get(session) ?? []), purchase.webhookId])
      lates.push(late)
      await pause(20)
      now -= 1
      running.set(session, running.get(session)! - 1)
    })
    await waitFor(() => lates.length === events.length, 20_000, 'every event handled')

    for (const session of sessions) {
      const expected = events
        .filter((e) => e.data.sessionId === session)
        .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.webhookId.localeCompare(b.webhookId))
        .map((e) => e.webhookId)
      expect(seen.get(session)).toEqual(expected)
    }
    expect(seen.get('s-a')!.slice(-2)).toEqual(['wh_tie_a', 'wh_tie_b'])
    expect(overlaps).toBe(0)
    expect(most).toBeGreaterThan(1) // other sessions ran beside one another
    expect(lates.every((late) => late === false)).toBe(true)
  })

  it('takes and hands on the sessions inside BullMQ’s own fetch and completion: one script call per event, as a bare worker', async () => {
    // Each event its own session, so that none waits its turn (a parked event is fetched twice).
    const events = Array.from({ length: 30 }, (_, i) => event(`s-single-${i}`, i))
    await send(...events)
    const stats = workerConnection(redis.url)
    const scriptCalls = async () =>
      Number(/cmdstat_evalsha:calls=(\d+)/.exec(await stats.info('commandstats'))?.[1] ?? 0)
    const before = await scriptCalls()
    let handled = 0
    startWorker(async () => {
      handled += 1
    })
    await waitFor(() => handled === events.length, 20_000, 'every event handled')
    const calls = (await scriptCalls()) - before
    stats.disconnect()
    // Taking and handing on the session in scripts of their own would make three per event. Counted on the
    // file's private Redis only: a shared one (REDIS_URL) counts other files' workers too.
    if (redis.isPrivate) expect(calls).toBeLessThan(events.length * 1.5)
  })

  it('orders the events of the enqueue by Queue.add (the fallback of other BullMQ versions) alike', async () => {
    await receiver.stop()
    receiver = await startReceiver(redis.url, prefix, { ordering: 'session', viaQueueAdd: true })
    const events = [1, 2, 3, 4].map((second) => event('s-fallback', second))
    await send(...shuffled(events), events[0]!) // and a redelivery, a duplicate: not registered twice
    const seen: string[] = []
    startWorker(async (purchase) => void seen.push(purchase.webhookId))
    await waitFor(() => seen.length === events.length, 10_000, 'every event handled')
    await pause(100)
    expect(seen).toEqual(events.map((e) => e.webhookId))
  })

  it('hands on an event older than one already handled, marked ctx.late with the newest timestamp', async () => {
    const seen: { second: string; late: HandlerContext['late'] }[] = []
    startWorker(async (purchase, { late }) => void seen.push({ second: purchase.timestamp, late }))
    await send(event('s-late', 20))
    await waitFor(() => seen.length === 1)
    await send(event('s-late', 10))
    await waitFor(() => seen.length === 2)
    await send(event('s-late', 30))
    await waitFor(() => seen.length === 3)
    expect(seen).toEqual([
      { second: at(20), late: false },
      { second: at(10), late: { newestTimestamp: at(20) } },
      { second: at(30), late: false },
    ])
  })

  it('keeps sessions apart whatever their ids: past 128 bytes (hashed), or reading like a hashed one', async () => {
    const long = 'L'.repeat(200)
    const lookalike = `sha256:${createHash('sha256').update(long).digest('hex')}`
    const seen: { session: string; late: HandlerContext['late'] }[] = []
    startWorker(async (purchase, { late }) => void seen.push({ session: purchase.data.sessionId, late }))
    await send(event(long, 20))
    await waitFor(() => seen.length === 1)
    // Another session, signed earlier: late only if it shared the long session's state.
    await send(event(lookalike, 10))
    await waitFor(() => seen.length === 2)
    expect(seen).toEqual([
      { session: long, late: false },
      { session: lookalike, late: false },
    ])
  })

  it('holds a session back while its earlier event is retried, then goes on in order', async () => {
    const first = event('s-retry', 1)
    const later = [event('s-retry', 2), event('s-retry', 3)]
    await send(...shuffled([first, ...later]))
    const calls: string[] = []
    startWorker(async (purchase, { attempt }) => {
      calls.push(purchase.webhookId)
      if (purchase.webhookId === first.webhookId && attempt < 3) throw new Error('not yet')
    })
    await waitFor(() => calls.length === 5, 20_000, 'three attempts and two events')
    expect(calls).toEqual([
      first.webhookId,
      first.webhookId,
      first.webhookId,
      ...later.map((e) => e.webhookId),
    ])
  })

  it('wakes a parked event when the event before it completes, not after its parking delay (the `!parked` mark)', async () => {
    const first = event('s-parked', 1)
    const second = event('s-parked', 2)
    await send(first, second)
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const calls: string[] = []
    // A parked event sleeps the lock duration plus the stalled interval (two minutes here) unless woken.
    const timing = { lockDurationMs: 60_000, lockRenewMs: 20_000, stalledIntervalMs: 60_000 }
    startWorker(
      async (purchase) => {
        calls.push(purchase.webhookId)
        if (purchase.webhookId === first.webhookId) await released
      },
      5,
      'session',
      timing,
    )
    const pending = `${prefix}:webhooks:ordering:s-parked:p`
    const state = workers[0]!.connection
    await waitFor(async () => (await state.zscore(pending, '!parked')) !== null, 10_000, 'the second parked')
    expect(calls).toEqual([first.webhookId])
    release()
    await waitFor(() => calls.length === 2, 20_000, 'the parked event, woken by the hand-on')
    expect(calls).toEqual([first.webhookId, second.webhookId])
    // Nothing waits parked any more: the mark went with the first's hand-on and was not written again.
    expect(await state.zscore(pending, '!parked')).toBeNull()
  })

  it('goes on when the event holding its session’s turn will not run again (its job removed while it waited to be retried)', async () => {
    const first = event('s-removed', 1)
    const second = event('s-removed', 2)
    await send(first, second)
    const calls: { webhookId: string; late: HandlerContext['late'] }[] = []
    const handle: Handler = async (purchase, { late }) => {
      calls.push({ webhookId: purchase.webhookId, late })
      if (purchase.webhookId === first.webhookId) throw new Error('fails until removed')
    }
    startWorker(handle)
    await waitFor(() => calls.length === 1, 10_000, 'the first attempt')
    // No worker while the job waits for its retry (backoff 20 ms, three attempts): it stays out of active.
    await workers[0]!.worker.close()
    const connection = workers[0]!.connection
    const holder = (await connection.zrange(`${prefix}:webhooks:ordering:s-removed:p`, 0, 0))[0]!
    expect(holder).toMatch(/^!run /)
    const jobId = holder.split(' ')[2]!
    // An operator's removal of the job between its attempts: it never completes nor dead-letters.
    const queue = new Queue('webhooks', { connection, prefix })
    expect(await queue.remove(jobId)).toBe(1)
    await queue.close()
    startWorker(handle)
    await waitFor(() => calls.some((call) => call.webhookId === second.webhookId), 10_000, 'the second event')
    expect(calls.filter((call) => call.webhookId === second.webhookId)).toEqual([
      { webhookId: second.webhookId, late: false },
    ])
  })

  it('goes on without a dead letter, which names the events that went on; a replay is late', async () => {
    const first = event('s-dead', 1)
    const later = [event('s-dead', 2), event('s-dead', 3)]
    await send(first, ...later)
    const calls: { webhookId: string; late: HandlerContext['late'] }[] = []
    let fixed = false
    startWorker(async (purchase, { late }) => {
      calls.push({ webhookId: purchase.webhookId, late })
      if (purchase.webhookId === first.webhookId && !fixed) throw new Error('handler bug')
    })
    await waitFor(() => calls.length === 5, 20_000, 'three attempts and two events')
    expect(calls.map((call) => call.webhookId)).toEqual([
      first.webhookId,
      first.webhookId,
      first.webhookId,
      ...later.map((e) => e.webhookId),
    ])

    const [letter] = await listDeadLetters(receiver.queue)
    expect(letter?.webhookId).toBe(first.webhookId)
    expect(letter?.failedReason).toMatch(
      /^handler bug \[per-session ordering: its session goes on without it;/,
    )
    for (const { webhookId } of later) expect(letter?.failedReason).toContain(webhookId)

    fixed = true
    await replayDeadLetters(receiver.queue, first.webhookId)
    await waitFor(() => calls.length === 6, 10_000, 'the replay')
    expect(calls[5]).toEqual({ webhookId: first.webhookId, late: { newestTimestamp: at(3) } })

    // A quarantined event replayed is late too, even the newest of its session (signed an hour ahead: `future`).
    const ahead = createWebhookEvent('purchase.completed', {
      data: { sessionId: 's-dead' },
      timestamp: new Date(Date.now() + 3_600_000).toISOString(),
    })
    await send(ahead)
    await replayDeadLetters(receiver.queue, ahead.webhookId, { ordering: 'session' })
    await waitFor(() => calls.length === 7, 10_000, 'the quarantined event')
    expect(calls[6]).toEqual({ webhookId: ahead.webhookId, late: { newestTimestamp: ahead.timestamp } })
  })

  it('a dead letter of a worker with ordering off, replayed once it is on, is late too (every replay is)', async () => {
    const only = event('s-switched', 1)
    await send(only)
    const calls: HandlerContext['late'][] = []
    let fixed = false
    startWorker(
      async (_purchase, { late }) => {
        calls.push(late)
        if (!fixed) throw new Error('handler bug')
      },
      5,
      'off',
    )
    await waitFor(async () => (await listDeadLetters(receiver.queue)).length === 1, 20_000, 'the dead letter')
    const off = workers.pop()!
    await off.worker.close()
    off.connection.disconnect()

    fixed = true
    startWorker(async (_purchase, { late }) => {
      calls.push(late)
    })
    await replayDeadLetters(receiver.queue, only.webhookId, { ordering: 'session' })
    await waitFor(() => calls.length === 4, 10_000, 'the replay')
    expect(calls[3]).toEqual({ newestTimestamp: at(1) })
  })

  it('a worker whose lock was taken over (its job re-delivered) does not hand the session on under the new holder', async () => {
    const first = event('s-stale', 1)
    const second = event('s-stale', 2)
    await send(first, second)
    let secondRuns = 0
    let letFirstEnd = () => {}
    const firstEnded = new Promise<void>((resolve) => {
      let started = false
      startWorker(async (purchase) => {
        if (purchase.webhookId === second.webhookId) {
          secondRuns += 1
          return
        }
        if (started) return
        started = true
        await new Promise<void>((end) => (letFirstEnd = end))
        resolve()
      })
    })
    const redisClient = workers[0]!.connection
    const pending = `${prefix}:webhooks:ordering:s-stale:p`
    // The turn holder's entry comes first in its session's pending set: `!run <webhookId> <jobId>`.
    const holder = async () => (await redisClient.zrange(pending, 0, 0))[0]
    await waitFor(async () => (await holder())?.startsWith('!run ') === true, 10_000, 'first event running')
    const jobId = (await holder())!.split(' ')[2]!
    // What a stalled-job re-delivery to another worker leaves: the job's lock under a new token.
    await redisClient.set(`${prefix}:webhooks:${jobId}:lock`, 'token-of-the-new-holder')
    letFirstEnd()
    await firstEnded
    // The stale worker's completion is sent on this connection before this ping: once it answers, it has run.
    await new Promise((resolve) => setImmediate(resolve))
    await redisClient.ping()
    expect(await holder()).toBe(`!run ${first.webhookId} ${jobId}`)
    expect(await redisClient.zscore(pending, `${first.webhookId} ${jobId}`)).not.toBeNull()
    expect(secondRuns).toBe(0)
  })

  it('two worker processes, one killed mid-event: its session goes on in the other, never two of its events at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-ordering-'))
    const log = join(dir, 'log')
    const handlers = join(dir, 'handlers.cjs')
    // Each event logs its start and end; the first attempt of a `_hang` event hangs until its process is killed.
    writeFileSync(
      handlers,
      `const fs = require('fs'); const path = require('path'); const dir = ${JSON.stringify(dir)}
const log = (what, event) => fs.appendFileSync(path.join(dir, 'log'), [what, event.data.sessionId, event.webhookId, process.pid].join(' ') + '\\n')
exports.handlers = {
  'purchase.completed': async (event) => {
    log('start', event)
    if (event.webhookId.endsWith('_hang') && !fs.existsSync(path.join(dir, 'hung'))) {
      fs.writeFileSync(path.join(dir, 'hung'), String(process.pid))
      await new Promise(() => {})
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
    log('end', event)
  },
}
`,
    )
    const env = {
      PATH: process.env.PATH,
      PORT: '0',
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: prefix,
      WEBHOOK_ORDERING: 'session',
      WEBHOOK_HANDLERS: handlers,
      WORKER_CONCURRENCY: '3',
      WORKER_LOCK_DURATION_MS: '1000',
      WORKER_STALLED_INTERVAL_MS: '500',
    }
    for (let i = 0; i < 2; i += 1)
      processes.push(
        await startServiceProcess({
          entry: join(dist, 'worker.js'),
          env,
          readyMessage: 'webhook worker running',
        }),
      )
    const events = [
      event('s-kill', 1, `wh_${randomUUID()}_hang`),
      ...[2, 3, 4, 5].map((second) => event('s-kill', second)),
      ...[1, 2, 3, 4, 5].map((second) => event('s-other', second)),
    ]
    await send(...events)

    await waitFor(() => existsSync(join(dir, 'hung')), 10_000, 'a worker to start the hanging event')
    const killedPid = Number(readFileSync(join(dir, 'hung'), 'utf8'))
    const killed = processes.find((p) => p.child.pid === killedPid)!
    await killed.stop('SIGKILL')
    appendFileSync(log, `killed - - ${killedPid}\n`)
    const ends = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('end '))
    await waitFor(() => ends().length === events.length, 20_000, 'every event to end')

    // Count the runs of each session in progress at once, reading the log in order; a kill ends its runs.
    const running = new Map<string, Set<string>>()
    let overlaps = 0
    for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
      const [what, session, webhookId, pid] = line.split(' ') as [string, string, string, string]
      if (what === 'killed')
        for (const runs of running.values())
          for (const run of runs) if (run.endsWith(` ${pid}`)) runs.delete(run)
      const runs = running.get(session) ?? new Set<string>()
      running.set(session, runs)
      if (what === 'start') {
        if (runs.size > 0) overlaps += 1
        runs.add(`${webhookId} ${pid}`)
      }
      if (what === 'end') runs.delete(`${webhookId} ${pid}`)
    }
    expect(overlaps).toBe(0)
    for (const session of ['s-kill', 's-other'])
      expect(
        ends()
          .filter((line) => line.split(' ')[1] === session)
          .map((line) => line.split(' ')[2]),
      ).toEqual(events.filter((e) => e.data.sessionId === session).map((e) => e.webhookId))
    const survivor = processes.find((p) => p !== killed)!
    expect(ends().find((line) => line.includes('_hang'))).toMatch(new RegExp(` ${survivor.child.pid}$`))
  })
})
