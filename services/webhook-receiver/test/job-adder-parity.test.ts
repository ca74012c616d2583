import { randomUUID } from 'node:crypto'
import { Queue, Worker, type Job } from 'bullmq'
import { createCleanup } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { BULLMQ_VERSION_PINNED, createJobAdder } from '../src/adapters/create-job-adder'
import { createRedisConnection, type RedisConnection } from '../src/adapters/create-redis-connection'
import { WEBHOOK_QUEUE_NAME } from '../src/adapters/queue-names'
import { makeEvent, uniquePrefix, urlTarget } from './support'

// The batched enqueue must leave Redis exactly as Queue.add does: same job hashes, lists, markers and events.
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

function queueOf(prefix: string) {
  return new Queue(WEBHOOK_QUEUE_NAME, {
    connection: { url: redis.url } as never,
    prefix,
    defaultJobOptions,
  })
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

describe(`the batched enqueue against Queue.add (BullMQ ${BULLMQ_VERSION_PINNED})`, () => {
  it.each([
    ['running', false],
    ['paused (jobs go to the paused list, no marker)', true],
  ])(
    'leaves the same Redis state as Queue.add, queue %s: jobs, lists, id counter, dedup markers with their TTL, events',
    async (_state, paused) => {
      const viaAdd = uniquePrefix()
      const viaBatch = uniquePrefix()
      const queue = queueOf(viaAdd)
      const batchQueue = queueOf(viaBatch)
      const producer = createRedisConnection(urlTarget(redis.url), 'producer')
      const adder = createJobAdder({
        connection: producer,
        queue: batchQueue,
        deduplicationTtlMs: TTL_MS,
        waitReplicas: 0,
        waitTimeoutMs: 1000,
      })
      try {
        if (paused) {
          await queue.pause()
          await batchQueue.pause()
        }
        const events = ['session.created', 'purchase.completed', 'session.ended'].map((kind) =>
          makeEvent(kind),
        )
        // The second delivery of the first event is a duplicate on both paths.
        const deliveries = [...events, events[0]!].map((event) => ({ event, jobId: randomUUID() }))
        const added: string[] = []
        for (const { event, jobId } of deliveries) {
          const job = await queue.add(event.event as string, event, {
            jobId,
            deduplication: { id: event.webhookId as string, ttl: TTL_MS },
          })
          added.push(job.id as string)
        }
        // All in one event-loop turn: one script call for the four.
        const batched = await Promise.all(
          deliveries.map(({ event, jobId }) =>
            adder.add(event.event as string, JSON.stringify(event), jobId, event.webhookId as string),
          ),
        )
        expect(batched).toEqual(added)
        expect(batched[3]).toBe(deliveries[0]!.jobId)
        const state = await snapshot(viaAdd)
        // 3 jobs, 3 dedup markers, the wait (or paused) list, the id counter, events, meta, and unless paused
        // the workers' marker.
        expect(Object.keys(state)).toHaveLength(paused ? 10 : 11)
        expect(await snapshot(viaBatch)).toEqual(state)
      } finally {
        producer.disconnect()
        await queue.close()
        await batchQueue.close()
      }
    },
  )

  it('hands a plain BullMQ worker the same job (name, data, options, attempts) as Queue.add', async () => {
    const prefix = uniquePrefix()
    const queue = queueOf(prefix)
    const producer = createRedisConnection(urlTarget(redis.url), 'producer')
    const adder = createJobAdder({
      connection: producer,
      queue,
      deduplicationTtlMs: TTL_MS,
      waitReplicas: 0,
      waitTimeoutMs: 1000,
    })
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
        JSON.stringify(second, null, 2),
        'by-batch',
        second.webhookId as string,
      )
      while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
      const byAdd = seen.find((job) => job.id === 'by-add')!
      const byBatch = seen.find((job) => job.id === 'by-batch')!
      expect(byBatch.data).toEqual(second)
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
