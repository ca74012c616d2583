import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { createLogger } from '@pf/service-kit'
import type { CompaniesQuery } from '../src/companies/company-store'
import { importCompanies } from '../src/companies/import/import-companies'
import { MemoryCompanyStore } from '../src/companies/memory-company-store'
import { Pool } from 'pg'
import { costedPlan } from '../src/companies/postgres/company-search-plan'
import { companySearchSql } from '../src/companies/postgres/company-search-sql'
import { WordStatistics } from '../src/companies/postgres/company-word-statistics'
import { PostgresCompanyStore } from '../src/companies/postgres/postgres-company-store'
import { loadDatasets } from '../src/datasets/load-datasets'
import { referenceData } from './support-data'

const registers = referenceData('companies-cc0')
// The files as loadDatasets reads them: sorted by name.
const registerFiles = readdirSync(registers)
  .filter((file) => file.endsWith('.csv'))
  .sort()
  .map((file) => join(registers, file))

const logger = createLogger({ name: 'test', level: 'silent' })
const cleanup = createCleanup(afterAll)
let postgres: PostgresHandle
let store: PostgresCompanyStore
const memory = MemoryCompanyStore.build(loadDatasets(registers).companies)

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  await importCompanies({ databaseUrl: postgres.url, source: 'cc0', files: registerFiles })
  store = cleanup.add(
    await PostgresCompanyStore.open({ url: postgres.url, poolSize: 4, timeoutMs: 10_000, logger }),
    (s) => s.close(),
  )
})

// Queries of every shape the README states: prefixes, accents and case, two words, industry, country spellings
// (ISO codes, names, aliases, unknown), no filter, and limits that cut (the `truncated` answers rest on them).
const QUERIES: CompaniesQuery[] = [
  { limit: 25 },
  { name: 'a', limit: 200 },
  { name: 'gm', country: 'Germany', limit: 20 },
  { name: 'deutsche ba', limit: 50 },
  { name: 'DEUTSCHE BAHN', limit: 50 },
  { name: 'société', limit: 100 },
  { name: 'societe generale', limit: 100 },
  { name: 'Straße', limit: 100 },
  { name: 'café', limit: 100 },
  { name: 'l oreal', limit: 100 },
  { name: 'banco santander', country: 'ES', limit: 100 },
  { name: 'jpmorgan', industry: 'banks', country: 'US', limit: 10 },
  { industry: 'commercial banks', country: 'USA', limit: 100 },
  { industry: 'software', limit: 300 },
  { country: 'United Kingdom', limit: 5000 },
  { country: 'gbr', limit: 1001 },
  { country: 'England', limit: 10 },
  { country: 'UK', limit: 999 },
  { country: 'Narnia', limit: 10 },
  { country: '  ', limit: 10 },
  { name: 'zzzqqq', limit: 10 },
  { name: '!!!', limit: 10 },
  { name: 'the', country: 'nl', limit: 10_001 },
  { name: 'hotel', industry: 'hotels', limit: 10_001 },
  { name: 'ab', limit: 1 },
  { name: 'i', country: 'italy', limit: 3000 },
]

describe('PostgresCompanyStore answers as the in-memory store does (README, "Companies search")', () => {
  it.each(QUERIES.map((query) => [JSON.stringify(query), query] as const))(
    'the same ids in the same order for %s',
    async (_label, query) => {
      const [inMemory, inPostgres] = await Promise.all([memory.search(query), store.search(query)])
      expect(inPostgres.map((c) => c.id)).toEqual(inMemory.map((c) => c.id))
      expect(inPostgres).toEqual(inMemory)
    },
  )

  it('streams every match in dataset order, as the in-memory store does', async () => {
    for (const query of [{ country: 'DE' }, { name: 'a' }, { industry: 'services', limit: 777 }]) {
      const collect = async (source: AsyncIterable<{ id: string }>) => {
        const ids: string[] = []
        for await (const company of source) ids.push(company.id)
        return ids
      }
      const [inMemory, inPostgres] = await Promise.all([
        collect(memory.stream(query)),
        collect(store.stream(query)),
      ])
      expect(inPostgres.length).toBeGreaterThan(100)
      expect(inPostgres).toEqual(inMemory)
    }
  })

  // Statistics that make every word rare (the GIN index finds the rows, sorted after) or common (the rows are
  // walked in dataset order): whichever plan they choose, the answer is the in-memory store's.
  it.each([
    ['bitmap', 1e-9],
    ['ordinal', 2],
  ] as const)('the same ids in the same order with every word %s-planned', async (scan, minFreq) => {
    const elements = { words: [], freqs: [], minFreq }
    const statistics = new WordStatistics([
      { records: 10_000_000, name_words: elements, industry_words: elements, countries: new Map() },
    ])
    expect(costedPlan({ name_words: ['bank'], industry_words: [] }, 'DE', 10, statistics).scan).toBe(scan)
    const pool = new Pool({ connectionString: postgres.url, max: 1 })
    try {
      for (const query of QUERIES) {
        const sql = companySearchSql(query, query.limit, statistics)
        const { rows } = sql ? await pool.query<{ id: string }>(sql) : { rows: [] }
        const inMemory = await memory.search(query)
        expect({ query, ids: rows.map((row) => row.id) }).toEqual({ query, ids: inMemory.map((c) => c.id) })
      }
    } finally {
      await pool.end()
    }
  })
})
