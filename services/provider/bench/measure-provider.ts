import { median, percentile } from './stats'

const HEADERS = { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' }

/** What one run measures of a provider process; what each figure is, in `MEASURES`. */
export interface ProviderMeasures {
  inlineMs: number
  s3Seconds: number
  screeningP95Ms: number
  requestsPerSecond: number
}

export interface MeasurePlan {
  /** Companies in the database: a `pf_s3_sync` delivery carries them all. */
  records: number
  /** Sanctions names screened one after the other (p95 of their answers' times). */
  screeningNames: readonly string[]
  /** Names of the small inline companies query (limit 10), sent `requests` times, `concurrency` at a time. */
  smallQueryNames: readonly string[]
  requests: number
  concurrency: number
  /** Inline answers of the largest size the schema allows (limit 10,000), timed one after the other. */
  inlineAnswers: number
}

/** The measures, how each reads (lower or higher is better), for the comparison's table. */
export const MEASURES: Record<
  keyof ProviderMeasures,
  { label: string; unit: string; better: 'lower' | 'higher' }
> = {
  inlineMs: { label: 'inline answer of 10,000 companies (median)', unit: 'ms', better: 'lower' },
  s3Seconds: { label: 'pf_s3_sync delivery of every company', unit: 's', better: 'lower' },
  screeningP95Ms: { label: 'screening p95 over HTTP (2024 SDN list)', unit: 'ms', better: 'lower' },
  requestsPerSecond: { label: 'small inline query (limit 10)', unit: 'req/s', better: 'higher' },
}

/** Asks a provider at `url` (its callbacks to `callbackUrl`) what `plan` says; warms it up first. */
export async function measureProvider(
  url: string,
  callbackUrl: string,
  plan: MeasurePlan,
): Promise<ProviderMeasures> {
  let n = 0
  const ask = async (endpoint: string, parameters: object, delivery?: object) => {
    const queryId = `bench-${++n}`
    const res = await fetch(`${url}/api/search/${endpoint}`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ queryId, callbackUrl, parameters, ...(delivery && { delivery }) }),
    })
    const body = (await res.json()) as { recordCount?: number }
    if (res.status !== 200) throw new Error(`${endpoint} ${queryId}: ${res.status} ${JSON.stringify(body)}`)
    return body
  }
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now()
    await run()
    return performance.now() - started
  }
  const small = (i: number) => ({ name: plan.smallQueryNames[i % plan.smallQueryNames.length], limit: 10 })

  for (const name of plan.screeningNames.slice(0, 50)) await ask('sanctions', { name })
  for (let i = 0; i < 50; i += 1) await ask('companies', small(i))
  await ask('companies', { limit: 10_000 })

  const screening: number[] = []
  for (const name of plan.screeningNames) screening.push(await timed(() => ask('sanctions', { name })))

  let next = 0
  const worker = async () => {
    while (next < plan.requests) await ask('companies', small(next++))
  }
  const burst = await timed(() => Promise.all(Array.from({ length: plan.concurrency }, worker)))

  const inline: number[] = []
  for (let i = 0; i < plan.inlineAnswers; i += 1)
    inline.push(await timed(() => ask('companies', { limit: 10_000 })))

  let delivered = 0
  const s3 = await timed(async () => {
    delivered = (await ask('companies', {}, { mechanism: 'pf_s3_sync' })).recordCount ?? 0
  })
  if (delivered !== plan.records)
    throw new Error(`the S3 delivery carried ${delivered} of ${plan.records} companies`)

  return {
    inlineMs: median(inline),
    s3Seconds: s3 / 1000,
    screeningP95Ms: percentile(screening, 95),
    requestsPerSecond: plan.requests / (burst / 1000),
  }
}
