import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServiceProcess } from '@pf/testkit'
import { startS3Server } from '@pf/testkit/s3'
import type { CompaniesQuery } from '../src/companies/company-store'
import { startCallbackSink } from './callback-sink'
import { round } from './stats'

const MAIN = join(__dirname, '..', 'dist', 'main.js')
const HEADERS = { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' }

/** A process's resident set and its peak so far, in MB (Linux `/proc`). */
function residentMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/**
 * The built provider (`dist/main.js`, run `pnpm build` first) searching `records` companies in PostgreSQL, in
 * a process of its own, as deployed: its RSS once ready, its peak after `queries` searches over HTTP, and how far
 * its RSS rises above that while it delivers `deliver` companies to S3 (`pf_s3_sync`; s3rver runs in this
 * process, so the figure is the provider's alone), sampled every 50 ms.
 */
export async function benchProviderProcess(
  databaseUrl: string,
  records: number,
  queries: CompaniesQuery[],
  deliver: number,
) {
  const s3Server = await startS3Server({ buckets: ['pf-deliveries'] })
  const sink = await startCallbackSink()
  const provider = await startServiceProcess({
    entry: MAIN,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      COMPANIES_DATABASE_URL: databaseUrl,
      COMPANIES_DATABASE_TIMEOUT_MS: '60000',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_TIMEOUT_MS: '60000',
      // A delivery without `limit` carries every match: the operator's cap sets how many.
      PROVIDER_MAX_DELIVERY_RECORDS: String(deliver),
      S3_ENDPOINT: s3Server.endpoint,
      AWS_ACCESS_KEY_ID: s3Server.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3Server.credentials.secretAccessKey,
    },
    readyMessage: 'provider listening',
    timeoutMs: 120_000,
  })
  try {
    const { url } = provider.readyLine as { url: string }
    const pid = provider.child.pid as number
    const ask = async (queryId: string, parameters: object, delivery?: object) => {
      const res = await fetch(`${url}/api/search/companies`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ queryId, callbackUrl: sink.url, parameters, ...(delivery && { delivery }) }),
      })
      const body = (await res.json()) as { recordCount?: number; error?: string }
      if (res.status !== 200) throw new Error(`${queryId}: ${res.status} ${JSON.stringify(body)}`)
      return body
    }
    const ready = residentMb(pid)
    let n = 0
    for (const query of queries) await ask(`rss-${n++}`, { ...query, limit: 100 })
    const searched = residentMb(pid)
    let peak = searched.rss
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid).rss)), 50)
    const started = performance.now()
    const delivered = await ask('rss-delivery', {}, { mechanism: 'pf_s3_sync' })
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    return [
      {
        benchmark: `built provider, ${records} companies in PostgreSQL: RSS ready / peak after ${queries.length} searches over HTTP`,
        metric: 'MB',
        value: `${Math.round(ready.rss)} / ${Math.round(searched.peak)}`,
        target: '<= 250',
      },
      {
        benchmark: `built provider delivers ${delivered.recordCount} companies to S3 (pf_s3_sync): time / RSS rise`,
        metric: 's / MB',
        value: `${round(seconds, 1)} / ${Math.round(peak - searched.rss)}`,
        target: 'rise <= 100',
      },
    ]
  } finally {
    await provider.stop('SIGTERM', { killAfterMs: 30_000 })
    sink.close()
    await s3Server.stop()
  }
}
