import { startS3Server } from '@pf/testkit/s3'
import { createS3Client } from '../src/adapters/create-s3-client'
import { deliverToS3 } from '../src/adapters/deliver-to-s3'
import type { CompanyStore } from '../src/companies/company-store'
import { round } from './stats'

/**
 * Every company of `store` delivered to an S3-compatible store (s3rver, in this process) as the provider does:
 * streamed from a cursor into a multipart upload. Time, and the growth of this process's RSS above where it
 * started (sampled every 50 ms; s3rver's own buffers included, so an upper bound of the provider's).
 */
export async function benchDelivery(store: CompanyStore) {
  const s3Server = await startS3Server({ buckets: ['pf-deliveries'] })
  const s3 = createS3Client({
    endpoint: s3Server.endpoint,
    region: 'us-east-1',
    credentials: s3Server.credentials,
    timeoutMs: 60_000,
  })
  try {
    global.gc?.()
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50)
    let records = 0
    async function* counted() {
      for await (const company of store.stream({})) {
        records += 1
        yield company
      }
    }
    const started = performance.now()
    await deliverToS3(s3, null, 'bench-all', 'pf-deliveries', counted())
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    return [
      {
        benchmark: `delivery of ${records} companies to S3 (cursor → multipart upload)`,
        metric: 's',
        value: round(seconds, 1),
        target: '',
      },
      {
        benchmark: 'RSS growth during that delivery (s3rver in process included)',
        metric: 'MB',
        value: Math.round((peak - before) / 1024 / 1024),
        target: '<= 100',
      },
    ]
  } finally {
    s3.destroy()
    await s3Server.stop()
  }
}
