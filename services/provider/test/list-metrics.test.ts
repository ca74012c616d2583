import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger, DEFAULT_OPS_SETTINGS, DEFAULT_SERVER_LIMITS, listen } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import { createS3Client } from '@pf/provider-kit'
import { createProvider, type Provider } from '../src/create-provider'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SearchEngine } from '../src/search-engine'

// What the list-refresh alerts and the provider dashboard read (deploy/monitoring): refreshes by outcome and the
// age of each list in use, on /metrics.
const logger = createLogger({ name: 'test', level: 'silent' })
const cleanup = createCleanup(afterAll)
let provider: Provider
let url: string
let file: string

beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), 'pf-list-metrics-')), 'watch-sanctions.jsonl')
  writeFileSync(file, JSON.stringify({ id: 'L1', name: 'QUIRINUS ABERNATHY' }))
  const lists = await SanctionsLists.load([file], { timeoutMs: 30_000, maxBytes: 1024 * 1024, logger })
  // No query runs here: the S3 client is never called.
  const s3 = cleanup.add(createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' }), (c) =>
    c.destroy(),
  )
  provider = createProvider(
    {
      port: 0,
      logLevel: 'silent',
      apiKeys: ['test-api-key'],
      s3: { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', defaultBucket: 'pf-deliveries' },
      dataDir: '(unused: the engine is given)',
      outbound: { allowPrivate: true, timeoutMs: 1000 },
      maxBodyBytes: 64 * 1024,
      searchBudgetMs: 2000,
      sanctions: { loadTimeoutMs: 120_000, maxBytes: 512 * 1024 * 1024, minShare: 0.5, maxNameLength: 1000 },
      server: DEFAULT_SERVER_LIMITS,
      ops: DEFAULT_OPS_SETTINGS,
    },
    { engine: SearchEngine.build({ companies: [], sanctions: [] }, lists), s3, logger },
  )
  url = cleanup.add(await listen(provider.app, { port: 0, host: '127.0.0.1' }), (s) => s.close()).url
})

const scrape = async () => (await (await fetch(`${url}/metrics`)).text()).split('\n')
const value = (lines: string[], series: string) => {
  const line = lines.find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('sanctions list metrics', () => {
  it('counts refreshes by outcome: ok, and failed when a source breaks (the previous lists stay in use)', async () => {
    expect(await provider.refreshLists()).toMatchObject({ ok: true })
    writeFileSync(file, '{not json')
    expect(await provider.refreshLists()).toMatchObject({ ok: false })
    expect(await provider.refreshLists()).toMatchObject({ ok: false })
    const lines = await scrape()
    expect(value(lines, 'pf_provider_list_refreshes_total{outcome="ok"}')).toBe(1)
    expect(value(lines, 'pf_provider_list_refreshes_total{outcome="failed"}')).toBe(2)
  })

  it('gives each list in use its age since it was loaded (the last good refresh)', async () => {
    const [list] = provider.lists()
    const before = Date.now()
    const age = value(await scrape(), 'pf_provider_list_age_seconds{list="watch-sanctions"}')
    const after = Date.now()
    expect(age).toBeGreaterThanOrEqual((before - Date.parse(list!.loadedAt)) / 1000)
    expect(age).toBeLessThanOrEqual((after - Date.parse(list!.loadedAt)) / 1000)
  })
})
