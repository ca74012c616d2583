import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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
import { loadCompaniesJsonl } from '../src/datasets/load-jsonl'
import { MAX_SEARCH_FILTER_LENGTH, MAX_SEARCH_NAME_LENGTH } from '@pf/schemas'
import { seededRandom } from '../scripts/sample-generator'
import { referenceData } from './support-data'

const registers = referenceData('companies-cc0')
// The files as loadDatasets reads them: sorted by name.
const registerFiles = readdirSync(registers)
  .filter((file) => file.endsWith('.csv'))
  .sort()
  .map((file) => join(registers, file))

const logger = createLogger({ name: 'test', level: 'silent' })
const cleanup = createCleanup(afterAll)
const folder = mkdtempSync(join(tmpdir(), 'pf-parity-'))
cleanup.defer(() => rmSync(folder, { recursive: true, force: true }))

// Characters folding makes longer ("㌖" is "キロメートル": 3 bytes become 18; "ﷺ" becomes four words), marks,
// scripts and the letters NFKD keeps as they are: the raw material of hostile names and queries.
const EXPANDING = ['㌖', '㍿', 'ﷺ', 'ß', 'ﬃ', 'İ', 'Æ', 'Σ', 'e\u0301', 'ǅ', '½', '①']
const SCRIPTS = ['Ж', 'ж', 'λ', 'ש', 'ع', '中', 'ア', 'ㅎ', 'ก', 'ქ', 'Ω', 'ø', 'ł', '7']

/**
 * Companies within PostgreSQL's text-search limits but near them: a word of 2,034 bytes once folded, names of
 * expanding characters, every script; imported as a second source after the registers, so in both stores they
 * come after them.
 */
const hostileFile = join(folder, 'hostile-companies.jsonl')
writeFileSync(
  hostileFile,
  [
    { id: 'h-long', name: `Kilo ${'㌖'.repeat(113)} GmbH`, industry: '㍿'.repeat(100) },
    { id: 'h-long-2', name: `${'㌖'.repeat(60)}${'a'.repeat(900)} AG`, country: 'DE' },
    { id: 'h-arabic', name: 'ﷺ Trading ﷺﷺ', country: 'AE', industry: 'ﷺ' },
    { id: 'h-mixed', name: 'Straße ﬃx İstanbul ΟΔΟΣ Æther ½ ① ǅemal', country: 'TR' },
    { id: 'h-marks', name: 'Cafe\u0301 Re\u0301sume\u0301 SARL', country: 'FR', industry: 'Cafe\u0301s' },
    { id: 'h-scripts', name: SCRIPTS.join(' '), industry: SCRIPTS.join('') },
    { id: 'h-digits', name: '7-Eleven 1 2 3 ４５６', country: 'US' },
  ]
    .map((company) => JSON.stringify(company))
    .join('\n'),
)
let postgres: PostgresHandle
let store: PostgresCompanyStore
const companies = [...loadDatasets(registers).companies, ...loadCompaniesJsonl(hostileFile)]
const memory = MemoryCompanyStore.build(companies)

/**
 * Query texts a hostile caller might send, up to `maxChars`: prefixes of stored words in any case, expanding
 * characters repeated (up to 300: a word of 5,400 bytes once folded), runs of mixed scripts, punctuation,
 * control and lone surrogate characters, numbers.
 */
function hostileText(random: () => number, maxChars: number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
  const count = 1 + Math.floor(random() * 5)
  const words = Array.from({ length: count }, () => {
    const kind = random()
    if (kind < 0.3) {
      const word = pick(pick(companies).name.split(/\s+/))
      return word.slice(0, 1 + Math.floor(random() * word.length))
    }
    if (kind < 0.5) return pick(EXPANDING).repeat(1 + Math.floor(random() * 300))
    if (kind < 0.7)
      return Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        pick([...EXPANDING, ...SCRIPTS]),
      ).join('')
    if (kind < 0.8) return pick(['!!', '-', "'", '&', '.', '\t', '\u0000', '\u200b', '\ud800', '\uffff'])
    if (kind < 0.9) return pick(companies).name.toUpperCase()
    return String(Math.floor(random() * 1e6))
  })
  return words.join(pick([' ', '  ', '-', '\t'])).slice(0, maxChars)
}

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  await importCompanies({ databaseUrl: postgres.url, source: 'cc0', files: registerFiles })
  const hostile = await importCompanies({
    databaseUrl: postgres.url,
    source: 'hostile',
    files: [hostileFile],
  })
  expect(hostile).toMatchObject({ imported: 7, rejected: 0 })
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
  // Past PostgreSQL's 2,047-byte lexeme once folded (256 × 18 bytes): no stored word starts with it.
  { name: '㌖'.repeat(256), limit: 10 },
  { name: `kilo ${'㌖'.repeat(114)}`, limit: 10 },
  { name: `kilo ${'㌖'.repeat(113)}`, limit: 10 },
  { name: '㌖'.repeat(60), country: 'DE', limit: 10 },
  { industry: '㍿'.repeat(100), limit: 10 },
  { name: 'ﷺ', industry: 'ﷺ', limit: 10 },
  { name: 'STRASSE FFIX ISTANBUL οδος', limit: 10 },
  { name: 'cafe résumé', industry: 'cafés', limit: 10 },
]

/** A query as a test name: its JSON, cut (a 256-character word is no name). */
const label = (query: CompaniesQuery) => {
  const json = JSON.stringify(query)
  return json.length > 100 ? `${json.slice(0, 100)}… (${json.length} characters)` : json
}

describe('PostgresCompanyStore answers as the in-memory store does (README, "Companies search")', () => {
  it.each(QUERIES.map((query) => [label(query), query] as const))(
    'the same ids in the same order for %s',
    async (_label, query) => {
      const [inMemory, inPostgres] = await Promise.all([memory.search(query), store.search(query)])
      expect(inPostgres.map((c) => c.id)).toEqual(inMemory.map((c) => c.id))
      expect(inPostgres).toEqual(inMemory)
    },
  )

  it('the same ids in the same order for 400 generated hostile queries (issue 35: words past PostgreSQL limits included)', async () => {
    const random = seededRandom(35)
    const countries = ['DE', 'Germany', 'gbr', 'UK', 'Narnia', '', '  ', 'ﷺ', 'TR', 'ae', null, undefined]
    for (let n = 0; n < 400; n += 1) {
      const query: CompaniesQuery = {
        name: random() < 0.8 ? hostileText(random, MAX_SEARCH_NAME_LENGTH) : null,
        industry: random() < 0.3 ? hostileText(random, MAX_SEARCH_FILTER_LENGTH) : null,
        country: countries[Math.floor(random() * countries.length)],
        limit: [1, 7, 100, 10_000][Math.floor(random() * 4)] as number,
      }
      const [inMemory, inPostgres] = await Promise.all([memory.search(query), store.search(query)])
      expect({ query, ids: inPostgres.map((c) => c.id) }).toEqual({ query, ids: inMemory.map((c) => c.id) })
    }
  })

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
