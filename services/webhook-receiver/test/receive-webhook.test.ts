import { loadTestVectors } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { signWebhook } from '@pf/signing'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import { listDeadLetters } from '../src/worker/dead-letters'
import {
  workerConnection,
  makeEvent,
  postSigned,
  SECRET,
  startReceiver,
  uniquePrefix,
  waitFor,
  workerDefaults,
  type StartedReceiver,
  json,
} from './support'

let redis: RedisHandle
let receiver: StartedReceiver

beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
beforeEach(async () => {
  receiver = await startReceiver(redis.url, uniquePrefix())
})
afterEach(() => receiver.stop())
afterAll(() => redis.stop())

const storedJobs = () => receiver.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])

describe('POST /webhooks/pf verifies X-PF-Signature over the raw body (spec, receiver rule 1)', () => {
  it.each(loadTestVectors().webhook)(
    'accepts the test vector $value and stores the event as sent',
    async (v) => {
      // The vectors are events of a fixed day: the receiver's clock is set to it, as for a fresh delivery.
      await receiver.stop()
      const sentAt = Date.parse((JSON.parse(v.body) as { timestamp: string }).timestamp)
      receiver = await startReceiver(redis.url, uniquePrefix(), { clock: () => sentAt + 1000 })
      const res = await postSigned(receiver.webhookUrl, Buffer.from(v.body, 'utf8'), { signature: v.value })
      expect(res.status).toBe(200)
      expect(await json(res)).toEqual({ received: true })
      const jobs = await storedJobs()
      expect(jobs.map((job) => job.data)).toEqual([JSON.parse(v.body)])
    },
  )

  it('rejects a tampered body with 401 {error} and stores nothing', async () => {
    const body = JSON.stringify(makeEvent('session.created'))
    const signature = signWebhook(SECRET, body)
    const res = await postSigned(receiver.webhookUrl, body.replace('120', '121'), { signature })
    expect(res.status).toBe(401)
    expect(Object.keys(await json(res))).toEqual(['error'])
    expect(await storedJobs()).toHaveLength(0)
  })

  it('rejects a signature with a sha256= prefix (webhooks carry bare hex) and a missing header', async () => {
    const body = JSON.stringify(makeEvent('session.created'))
    const prefixed = await postSigned(receiver.webhookUrl, body, {
      signature: `sha256=${signWebhook(SECRET, body)}`,
    })
    expect(prefixed.status).toBe(401)
    const missing = await fetch(receiver.webhookUrl, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect(missing.status).toBe(401)
    expect(await json(missing)).toEqual({ error: 'missing X-PF-Signature header' })
    expect(await storedJobs()).toHaveLength(0)
  })

  it('accepts a body signed with a previous secret during a rotation', async () => {
    const body = JSON.stringify(makeEvent('session.ended'))
    const res = await postSigned(receiver.webhookUrl, body, { secret: 'secret with spaces & ünïcode' })
    expect(res.status).toBe(200)
  })

  it('answers 413 {error} for a body over the limit', async () => {
    const body = JSON.stringify(makeEvent('session.created', { padding: 'x'.repeat(70 * 1024) }))
    const res = await postSigned(receiver.webhookUrl, body)
    expect(res.status).toBe(413)
    expect(Object.keys(await json(res))).toEqual(['error'])
  })

  it('answers 400 {error} for a correctly signed body that is not JSON, or has no webhookId to deduplicate on', async () => {
    const notJson = await postSigned(receiver.webhookUrl, 'event=session.created')
    expect(notJson.status).toBe(400)
    expect(Object.keys(await json(notJson))).toEqual(['error'])
    const noWebhookId = await postSigned(receiver.webhookUrl, JSON.stringify({ event: 'session.created' }))
    expect(noWebhookId.status).toBe(400)
    expect((await json(noWebhookId)).error).toMatch(/webhookId is required/)
    expect(await storedJobs()).toHaveLength(0)
  })
})

describe('unknown event kinds are ignored with a warning (spec, receiver rule 4)', () => {
  it('answers 200 {received: true}, hands nothing to the worker, and keeps the event quarantined', async () => {
    const res = await postSigned(
      receiver.webhookUrl,
      JSON.stringify(makeEvent('session.paused', { data: {} })),
    )
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual({ received: true })
    expect(await storedJobs()).toHaveLength(0)
    expect(await listDeadLetters(receiver.queue)).toEqual([
      expect.objectContaining({ event: 'session.paused', reason: 'invalid_data' }),
    ])
  })
})

describe('deduplication by webhookId (spec, receiver rule 3)', () => {
  it('acknowledges a redelivery with 200 and stores the event once', async () => {
    const body = JSON.stringify(makeEvent('purchase.completed'))
    expect((await postSigned(receiver.webhookUrl, body)).status).toBe(200)
    const again = await postSigned(receiver.webhookUrl, body)
    expect(again.status).toBe(200)
    expect(await json(again)).toEqual({ received: true })
    expect(await storedJobs()).toHaveLength(1)
  })

  it('stores once when two receiver replicas get the same webhookId at the same moment', async () => {
    const other = await startReceiver(redis.url, (receiver.queue.opts.prefix as string) ?? '')
    try {
      const body = JSON.stringify(makeEvent('session.created'))
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postSigned(i % 2 ? other.webhookUrl : receiver.webhookUrl, body),
        ),
      )
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200))
      expect(await storedJobs()).toHaveLength(1)
    } finally {
      await other.stop()
    }
  })

  it('still recognises the webhookId after its job was processed and trimmed, and after a receiver restart', async () => {
    const prefix = receiver.queue.opts.prefix as string
    const handled: string[] = []
    const connection = workerConnection(redis.url)
    const worker = createWebhookWorker({
      ...workerDefaults,
      connection,
      prefix,
      handlers: { 'session.extended': async (event) => void handled.push(event.webhookId) },
    })
    try {
      const body = JSON.stringify(makeEvent('session.extended'))
      expect((await postSigned(receiver.webhookUrl, body)).status).toBe(200)
      await waitFor(() => handled.length === 1, 5000, 'the worker')
      // keepCompleted is 0: the completed job is gone from Redis, only the dedup marker remains.
      await waitFor(async () => (await storedJobs()).length === 0, 5000, 'the job to be trimmed')

      await receiver.stop()
      receiver = await startReceiver(redis.url, prefix)
      const redelivered = await postSigned(receiver.webhookUrl, body)
      expect(redelivered.status).toBe(200)
      expect(await storedJobs()).toHaveLength(0)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(handled).toHaveLength(1)
    } finally {
      await worker.close()
      connection.disconnect()
    }
  })
})

describe('the fallback enqueue (BullMQ other than the pinned version: Queue.add, one job at a time)', () => {
  it('accepts, deduplicates and stores the event a worker can read, like the batched enqueue', async () => {
    const fallback = await startReceiver(redis.url, uniquePrefix(), { viaQueueAdd: true })
    try {
      const event = makeEvent('session.extended')
      const body = JSON.stringify(event)
      expect((await postSigned(fallback.webhookUrl, body)).status).toBe(200)
      expect((await postSigned(fallback.webhookUrl, body)).status).toBe(200)
      const jobs = await fallback.queue.getJobs(['waiting'])
      expect(jobs.map((job) => [job.name, job.data])).toEqual([['session.extended', event]])
    } finally {
      await fallback.stop()
    }
  })
})

describe('ops endpoints', () => {
  it('/health answers without Redis; /ready checks Redis; /metrics counts accepted, duplicates and rejections', async () => {
    const body = JSON.stringify(makeEvent('session.created'))
    await postSigned(receiver.webhookUrl, body)
    await postSigned(receiver.webhookUrl, body)
    await postSigned(receiver.webhookUrl, body, { secret: 'wrong' })
    expect((await fetch(`${receiver.url}/health`)).status).toBe(200)
    expect(await json(await fetch(`${receiver.url}/ready`))).toEqual({ status: 'ready' })
    const metrics = await (await fetch(`${receiver.url}/metrics`)).text()
    expect(metrics).toMatch(/pf_webhooks_accepted_total\{event="session.created"\} 1/)
    expect(metrics).toMatch(/pf_webhooks_duplicates_total 1/)
    expect(metrics).toMatch(/pf_webhooks_rejected_total\{reason="signature"\} 1/)
    expect(metrics).toMatch(/pf_webhook_enqueue_duration_seconds_count 2/)
    expect(metrics).toMatch(/pf_webhook_queue_jobs\{state="waiting"\} 1/)
  })

  it('answers 404 {error} elsewhere', async () => {
    const res = await fetch(`${receiver.url}/nope`)
    expect(res.status).toBe(404)
    expect(await json(res)).toEqual({ error: 'not found' })
  })
})
