import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { createCleanup } from '@pf/testkit'
import { makeEvent, postSigned, startReceiver, uniquePrefix, type StartedReceiver } from './support'

// The "age of the oldest waiting job" the dashboards and the queue-age alert read (deploy/monitoring).
let redis: RedisHandle
let receiver: StartedReceiver
const cleanup = createCleanup(afterAll)

beforeAll(async () => {
  redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
  receiver = cleanup.add(await startReceiver(redis.url, uniquePrefix()), (r) => r.stop())
})

const ageMetric = async () => {
  const text = await (await fetch(`${receiver.url}/metrics`)).text()
  const line = /^pf_webhook_queue_oldest_waiting_age_seconds (\S+)$/m.exec(text)
  if (!line) throw new Error('pf_webhook_queue_oldest_waiting_age_seconds is not in /metrics')
  return Number(line[1])
}

describe('pf_webhook_queue_oldest_waiting_age_seconds', () => {
  it('is 0 while no job waits for a worker', async () => {
    expect(await ageMetric()).toBe(0)
  })

  it('is the age of the oldest waiting job, not of the newest, while no worker takes them', async () => {
    for (const kind of ['session.created', 'purchase.completed']) {
      const res = await postSigned(receiver.webhookUrl, JSON.stringify(makeEvent(kind)))
      expect(res.status).toBe(200)
    }
    const stored = (await receiver.queue.getJobs(['wait'])).map((job) => job.timestamp)
    expect(stored).toHaveLength(2)
    const oldest = Math.min(...stored)
    const before = Date.now()
    const age = await ageMetric()
    const after = Date.now()
    // Bounds from the oldest job's own timestamp, read around the scrape: no time budget involved.
    expect(age).toBeGreaterThanOrEqual((before - oldest) / 1000)
    expect(age).toBeLessThanOrEqual((after - oldest) / 1000)
  })
})
