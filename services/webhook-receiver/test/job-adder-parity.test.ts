import { randomUUID } from 'node:crypto'
import { Queue, Worker, type Job } from 'bullmq'
import { createCleanup } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { addJobKeepingMarker } from '../src/queue/enqueue/add-job-keeping-marker'
import { BULLMQ_VERSION_PINNED, createJobAdder } from '../src/queue/enqueue/create-job-adder'
import { createRedisConnection, type RedisConnection } from '../src/queue/redis/create-redis-connection'
import { JOB_TRACE_FIELD, withTraceData, withTraceText } from '../src/queue/job-trace-context'
import { WEBHOOK_QUEUE_NAME } from '../src/queue/queue-names'
import { makeEvent, uniquePrefix, urlTarget } from './support'

// The batched enqueue must leave Redis exactly as its fallback (Queue.add's script, in a MULTI that keeps the dedup
// marker independent of the job) does, and so as Queue.add does but for the markers: same job hashes, lists,
// markers and events.
let redis: RedisHandle
let client: RedisConnection
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
  client = cleanup.add(createRedisConnection(urlTarget(redis.url), 'worker'), (c) => c.disconnect())
})

const defaultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 10_000 },
}
const TTL_MS = 3_600_000
// What the receiver's enqueue span puts in the job data (issue 26): the W3C trace context, on every path.
const TRACE = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'pf=1' }

function queueOf(prefix: string) {
  return new Queue(WEBHOOK_QUEUE_NAME, {
    connection: { url: redis.url } as never,
    prefix,
    defaultJobOptions,
  })
}

/** The receiver's batched enqueue for a queue, on a producer connection of its own (the caller closes it). */
function batchedAdder(queue: Queue) {
  const producer = createRedisConnection(urlTarget(redis.url), 'producer')
  const adder = createJobAdder({
    connection: producer,
    queue,
    deduplicationTtlMs: TTL_MS,
    waitReplicas: 0,
    waitTimeoutMs: 1000,
  })
  return { producer, adder }
}

/**
 * Every key of a queue, its value read by type, byte for byte (job data and the options' JSON included), with
 * only what legitimately differs (prefix, clock) normalised.
 */
async function snapshot(prefix: string): Promise<Record<string, unknown>> {
  const keys = (await client.keys(`${prefix}:*`)) as string[]
  const state: Record<string, unknown> = {}
  for (const key of keys.sort()) {
    const name = key.slice(prefix.length)
    const type = await client.type(key)
    if (type === 'hash') {
      const hash = await client.hgetall(key)
      // Same form, another moment.
      if (hash.timestamp) hash.timestamp = hash.timestamp.replace(/\d/g, '9')
      state[name] = hash
    } else if (type === 'list') state[name] = await client.lrange(key, 0, -1)
    else if (type === 'string')
      state[name] = { value: await client.get(key), expires: (await client.pttl(key)) > 0 }
    else if (type === 'stream') state[name] = (await client.xrange(key, '-', '+')).map(([, fields]) => fields)
    else state[name] = type
  }
  return state
}

/**
 * Queue.add's state as the receiver's enqueues leave it: each dedup marker holds `job:<id>` instead of the job's
 * id (so that removing the job leaves it), and so do the events that name the marker's job on a duplicate.
 */
function withKeptMarkers(state: Record<string, unknown>): Record<string, unknown> {
  const kept = (id: unknown) => `job:${id as string}`
  return Object.fromEntries(
    Object.entries(state).map(([name, value]) => {
      if (name.includes(':de:'))
        return [name, { ...(value as object), value: kept((value as { value: string }).value) }]
      if (!name.endsWith(':events')) return [name, value]
      return [
        name,
        (value as string[][]).map((fields) =>
          fields[1] === 'debounced' || fields[1] === 'deduplicated'
            ? fields.map((field, i) => (fields[i - 1] === 'jobId' ? kept(field) : field))
            : fields,
        ),
      ]
    }),
  )
}

describe(`the batched enqueue against Queue.add (BullMQ ${BULLMQ_VERSION_PINNED})`, () => {
  it.each([
    ['running', false],
    ['paused (jobs go to the paused list, no marker)', true],
  ])(
    "leaves the same Redis state as the Queue.add fallback, queue %s: jobs (their data carrying the trace context), lists, id counter, dedup markers with their TTL, events; Queue.add's own but for the markers",
    async (_state, paused) => {
      const viaAdd = uniquePrefix()
      const viaFallback = uniquePrefix()
      const viaBatch = uniquePrefix()
      const queue = queueOf(viaAdd)
      const fallbackQueue = queueOf(viaFallback)
      const batchQueue = queueOf(viaBatch)
      const { producer, adder } = batchedAdder(batchQueue)
      try {
        if (paused) for (const q of [queue, fallbackQueue, batchQueue]) await q.pause()
        const events = ['session.created', 'purchase.completed', 'session.ended'].map((kind) =>
          makeEvent(kind),
        )
        // A webhookId with what cjson escapes its own way (a slash, a quote, a backslash, a control character)
        // and UTF-8: the options' JSON, spliced by the batched script, must still be byte for byte cjson's.
        events.push(makeEvent('session.extended', { webhookId: 'wh_a/b"c\\d\u0001é' }))
        // The second delivery of the first event is a duplicate on every path.
        const deliveries = [...events, events[0]!].map((event) => ({ event, jobId: randomUUID() }))
        const added: string[] = []
        const fallback: string[] = []
        for (const { event, jobId } of deliveries) {
          const deduplication = { id: event.webhookId as string, ttl: TTL_MS }
          const data = withTraceData(event, TRACE)
          added.push((await queue.add(event.event as string, data, { jobId, deduplication })).id as string)
          fallback.push(
            await addJobKeepingMarker(fallbackQueue, event.event as string, data, { jobId, deduplication }),
          )
        }
        // All in one event-loop turn: one script call for the five.
        const batched = await Promise.all(
          deliveries.map(({ event, jobId }) =>
            adder.add(
              event.event as string,
              withTraceText(JSON.stringify(event), TRACE),
              jobId,
              event.webhookId as string,
            ),
          ),
        )
        expect(batched).toEqual(fallback)
        expect(batched[4]).toBe(`job:${deliveries[0]!.jobId}`)
        expect(added[4]).toBe(deliveries[0]!.jobId)
        const state = await snapshot(viaFallback)
        const job = state[`:${WEBHOOK_QUEUE_NAME}:${deliveries[0]!.jobId}`] as { data: string }
        expect(JSON.parse(job.data)).toEqual({ ...events[0], [JOB_TRACE_FIELD]: TRACE })
        // 4 jobs, 4 dedup markers, the wait (or paused) list, the id counter, events, meta, and unless paused
        // the workers' marker.
        expect(Object.keys(state)).toHaveLength(paused ? 12 : 13)
        expect(await snapshot(viaBatch)).toEqual(state)
        expect(withKeptMarkers(await snapshot(viaAdd))).toEqual(state)
      } finally {
        producer.disconnect()
        for (const q of [queue, fallbackQueue, batchQueue]) await q.close()
      }
    },
  )

  it('keeps the dedup marker when the job is removed (job.remove, Queue.clean), on both paths; Queue.add alone loses it', async () => {
    const prefix = uniquePrefix()
    const queue = queueOf(prefix)
    const { producer, adder } = batchedAdder(queue)
    try {
      const [plain, kept, batched] = ['session.created', 'session.ended', 'purchase.completed'].map((kind) =>
        makeEvent(kind),
      )
      const deduplication = (event: typeof plain) => ({ id: event!.webhookId as string, ttl: TTL_MS })
      const marker = (event: typeof plain) =>
        client.get(`${prefix}:${WEBHOOK_QUEUE_NAME}:de:${event!.webhookId as string}`)
      await queue.add('session.created', plain, { jobId: 'plain', deduplication: deduplication(plain) })
      await addJobKeepingMarker(queue, 'session.ended', kept, {
        jobId: 'kept',
        deduplication: deduplication(kept),
      })
      await adder.add('purchase.completed', JSON.stringify(batched), 'batched', batched!.webhookId as string)

      await (await queue.getJob('kept'))!.remove()
      await (await queue.getJob('plain'))!.remove()
      expect(await queue.clean(0, 10, 'wait')).toEqual(['batched'])
      expect(await queue.getJobCounts('waiting')).toMatchObject({ waiting: 0 })
      expect(await marker(kept)).toBe('job:kept')
      expect(await marker(batched)).toBe('job:batched')
      expect(await marker(plain)).toBeNull()
      // So a redelivery is a duplicate on the receiver's paths, not a new job.
      expect(
        await addJobKeepingMarker(queue, 'session.ended', kept, {
          jobId: 'again',
          deduplication: deduplication(kept),
        }),
      ).toBe('job:kept')
      expect(await queue.getJobCounts('waiting')).toMatchObject({ waiting: 0 })
    } finally {
      producer.disconnect()
      await queue.close()
    }
  })

  it('hands a plain BullMQ worker the same job (name, data, options, attempts) as Queue.add', async () => {
    const prefix = uniquePrefix()
    const queue = queueOf(prefix)
    const { producer, adder } = batchedAdder(queue)
    const seen: Job[] = []
    const worker = new Worker(WEBHOOK_QUEUE_NAME, async (job) => void seen.push(job), {
      connection: { url: redis.url } as never,
      prefix,
    })
    try {
      const first = makeEvent('purchase.failed')
      const second = makeEvent('purchase.failed')
      await queue.add('purchase.failed', first, {
        jobId: 'by-add',
        deduplication: { id: first.webhookId as string, ttl: TTL_MS },
      })
      // Stored as the verified text came (spaces and all): the worker parses the same object.
      await adder.add(
        'purchase.failed',
        withTraceText(JSON.stringify(second, null, 2), TRACE),
        'by-batch',
        second.webhookId as string,
      )
      while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
      const byAdd = seen.find((job) => job.id === 'by-add')!
      const byBatch = seen.find((job) => job.id === 'by-batch')!
      expect(byBatch.data).toEqual({ ...second, [JOB_TRACE_FIELD]: TRACE })
      expect(byAdd.data).toEqual(first)
      expect({ name: byBatch.name, opts: { ...byBatch.opts, jobId: 'x', deduplication: 'x' } }).toEqual({
        name: byAdd.name,
        opts: { ...byAdd.opts, jobId: 'x', deduplication: 'x' },
      })
      expect(byBatch.opts.deduplication).toEqual({ id: second.webhookId, ttl: TTL_MS })
    } finally {
      await worker.close()
      producer.disconnect()
      await queue.close()
    }
  })
})
