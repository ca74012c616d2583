import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import { Client } from 'pg'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { createLogger } from '@pf/service-kit'
import { importCompanies } from '../src/companies/import/import-companies'
import { PostgresCompanyStore } from '../src/companies/postgres/postgres-company-store'
import { SearchEngine } from '../src/search-engine'
import { referenceData } from './support-data'
import { query, startProvider, startRecorder, startStore, type StartedProvider } from './support-http'

const registers = referenceData('companies-cc0')
const files = readdirSync(registers)
  .filter((file) => file.endsWith('.csv'))
  .sort()
  .map((file) => join(registers, file))

const cleanup = createCleanup(afterAll)
let postgres: PostgresHandle
let s3Server: S3ServerHandle
let provider: StartedProvider
let inMemory: StartedProvider
let capped: StartedProvider
let callbacks: Awaited<ReturnType<typeof startRecorder>>
let targets: Awaited<ReturnType<typeof startRecorder>>

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  await importCompanies({ databaseUrl: postgres.url, source: 'cc0', files })
  const logger = createLogger({ name: 'test', level: 'silent' })
  // A short time-out: with the server stopped, a connect is refused at once; this bounds the rest.
  const open = () => PostgresCompanyStore.open({ url: postgres.url, poolSize: 3, timeoutMs: 3000, logger })
  const store = cleanup.add(await open(), (s) => s.close())
  const cappedStore = cleanup.add(await open(), (s) => s.close())
  s3Server = cleanup.add(await startStore(), (s) => s.stop())
  callbacks = cleanup.add(await startRecorder(), (r) => r.close())
  targets = cleanup.add(await startRecorder(), (r) => r.close())
  const engine = SearchEngine.build({ companies: [], sanctions: [] }, undefined, store)
  provider = cleanup.add(await startProvider(s3Server, { engine, ops: { readyCacheMs: 0 } }), (p) => p.stop())
  inMemory = cleanup.add(await startProvider(s3Server), (p) => p.stop())
  const cappedEngine = SearchEngine.build({ companies: [], sanctions: [] }, undefined, cappedStore)
  capped = cleanup.add(
    await startProvider(s3Server, { engine: cappedEngine, delivery: { timeoutMs: 60_000, maxRecords: 250 } }),
    (p) => p.stop(),
  )
})

let counter = 0
const envelope = (parameters: Record<string, unknown>, delivery?: Record<string, unknown>) => ({
  queryId: `pg-${++counter}`,
  callbackUrl: `${callbacks.url}/callbacks`,
  callbackToken: 'cb-token',
  parameters,
  ...(delivery ? { delivery } : {}),
})
const lastCallback = () =>
  JSON.parse(callbacks.requests[callbacks.requests.length - 1]?.body.toString() ?? 'null') as Record<
    string,
    unknown
  >
async function readObject(key: string): Promise<{ id: string }[]> {
  const { s3 } = provider
  const object = await s3.send(new GetObjectCommand({ Bucket: 'pf-deliveries', Key: key }))
  return JSON.parse(await object.Body!.transformToString()) as { id: string }[]
}

describe('deliveries without a record cap (pf_s3_sync, webhook)', () => {
  it.each([
    ['PostgreSQL', () => provider],
    ['memory', () => inMemory],
  ])(
    'pf_s3_sync from %s carries every match when the query sets no limit; recordCount = delivered',
    async (_store, which) => {
      const sent = envelope({ country: 'United Kingdom' }, { mechanism: 'pf_s3_sync' })
      const res = await query(which().url, 'companies', sent)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ recordCount: 1000, delivery: { mechanism: 'pf_s3_sync' } })
      expect(res.body.truncated).toBeUndefined()
      expect(lastCallback()).toMatchObject({ queryId: sent.queryId, status: 'delivered', recordCount: 1000 })
      const delivered = await readObject(`${sent.queryId}.json`)
      expect(delivered).toHaveLength(1000)
      expect(new Set(delivered.map((c) => c.id)).size).toBe(1000)
    },
  )

  it('a webhook delivery streams every match; an explicit limit cuts it and says truncated', async () => {
    const all = await query(
      provider.url,
      'companies',
      envelope({ name: 'a' }, { mechanism: 'webhook', url: `${targets.url}/in` }),
    )
    expect(all.status).toBe(200)
    const body = JSON.parse(targets.requests[targets.requests.length - 1]!.body.toString()) as unknown[]
    expect(body.length).toBeGreaterThan(100)
    expect(all.body.recordCount).toBe(body.length)
    const cut = await query(
      provider.url,
      'companies',
      envelope({ name: 'a', limit: 10 }, { mechanism: 'webhook', url: `${targets.url}/in` }),
    )
    expect(cut.body).toMatchObject({ recordCount: 10, truncated: true })
    expect(JSON.parse(targets.requests[targets.requests.length - 1]!.body.toString())).toHaveLength(10)
  })

  it('inline answers keep the default limit (100) and say truncated', async () => {
    const res = await query(provider.url, 'companies', envelope({ country: 'DE' }))
    expect(res.body).toMatchObject({ recordCount: 100, truncated: true })
    expect(res.body.results).toHaveLength(100)
  })

  it('PROVIDER_MAX_DELIVERY_RECORDS caps a delivery without a limit, and says truncated', async () => {
    const sent = envelope({ country: 'GB' }, { mechanism: 'pf_s3_sync' })
    const res = await query(capped.url, 'companies', sent)
    expect(res.body).toMatchObject({ recordCount: 250, truncated: true })
    expect(await readObject(`${sent.queryId}.json`)).toHaveLength(250)
  })
})

describe('the two stores answer alike over HTTP (issue 35)', () => {
  it.each([
    ['PostgreSQL', () => provider],
    ['memory', () => inMemory],
  ])(
    'from %s a word longer than PostgreSQL\'s lexeme once folded ("㌖" × 256, 4,608 bytes) matches nothing: 200 and delivered, not 500',
    async (_store, which) => {
      const sent = envelope({ name: '㌖'.repeat(256), country: 'DE' })
      const res = await query(which().url, 'companies', sent)
      expect(res).toMatchObject({ status: 200, body: { queryId: sent.queryId, recordCount: 0, results: [] } })
      expect(lastCallback()).toMatchObject({ queryId: sent.queryId, status: 'delivered', recordCount: 0 })
    },
  )
})

describe('the database down, then back (issue 24: failed callback + 500, /ready 503, recovers by itself)', () => {
  it('fails queries with the spec failed callback and a 500, /ready 503, and answers again once it is back', async () => {
    await postgres.stop()
    for (const delivery of [undefined, { mechanism: 'pf_s3_sync' }]) {
      const sent = envelope({ name: 'deutsche' }, delivery)
      const res = await query(provider.url, 'companies', sent)
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ error: 'search failed', queryId: sent.queryId })
      expect(lastCallback()).toMatchObject({ queryId: sent.queryId, status: 'failed', recordCount: 0 })
    }
    expect((await fetch(`${provider.url}/ready`)).status).toBe(503)
    await postgres.start()
    expect((await fetch(`${provider.url}/ready`)).status).toBe(200)
    const res = await query(provider.url, 'companies', envelope({ name: 'deutsche bahn' }))
    expect(res.status).toBe(200)
    expect(res.body.recordCount).toBeGreaterThan(0)
  })
})

describe('a slow database (COMPANIES_DATABASE_TIMEOUT_MS)', () => {
  it('ends a search that waits past the statement time-out: failed callback and 500, then answers again', async () => {
    // Another session holds the version pointer's table: every search waits on it, as on a stalled database.
    const blocker = new Client({ connectionString: postgres.url })
    await blocker.connect()
    try {
      await blocker.query('BEGIN')
      await blocker.query('LOCK TABLE company_sources IN ACCESS EXCLUSIVE MODE')
      const sent = envelope({ name: 'deutsche' })
      const res = await query(provider.url, 'companies', sent)
      expect(res).toMatchObject({ status: 500, body: { error: 'search failed', queryId: sent.queryId } })
      expect(lastCallback()).toMatchObject({ queryId: sent.queryId, status: 'failed', recordCount: 0 })
      await blocker.query('ROLLBACK')
      expect((await query(provider.url, 'companies', envelope({ name: 'deutsche' }))).status).toBe(200)
    } finally {
      await blocker.end()
    }
  })
})

describe('the built provider with COMPANIES_DATABASE_URL', () => {
  it('migrates, says companies: postgres when ready, and searches the imported rows', async () => {
    const provider = await startServiceProcess({
      entry: join(__dirname, '..', 'dist', 'main.js'),
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        S3_ENDPOINT: s3Server.endpoint,
        AWS_ACCESS_KEY_ID: s3Server.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3Server.credentials.secretAccessKey,
        COMPANIES_DATABASE_URL: postgres.url,
        COMPANIES_DATABASE_POOL: '2',
        OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      readyMessage: 'provider listening',
    })
    try {
      const { url, companies } = provider.readyLine as { url: string; companies: string }
      expect(companies).toBe('postgres')
      expect((await fetch(`${url}/ready`)).status).toBe(200)
      // The CC0 registers are in the database; the bundled sample (PROVIDER_DATA_DIR) is not searched.
      const res = await query(url, 'companies', envelope({ name: 'deutsche bahn' }), 'pf-demo-api-key')
      expect(res.status).toBe(200)
      expect(res.body.results).toContainEqual(expect.objectContaining({ name: 'Deutsche Bahn AG' }))
      expect(await provider.stop('SIGTERM')).toBe(0)
    } finally {
      await provider.stop('SIGKILL')
    }
  })
})
