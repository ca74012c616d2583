import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgres, findPostgresBinaries } from '@pf/testkit/postgres'
import { createLogger } from '@pf/service-kit'
import type { CompaniesQuery, CompanyStore } from '../src/companies/company-store'
import { importCompanies } from '../src/companies/import/import-companies'
import { MemoryCompanyStore } from '../src/companies/memory-company-store'
import { PostgresCompanyStore } from '../src/companies/postgres/postgres-company-store'
import { loadCompaniesJsonl } from '../src/datasets/load-jsonl'
import { seededRandom } from '../scripts/sample-generator'
import { benchProviderProcess } from './provider-process.bench'
import type { RegistryCompany } from './registry-generator'
import { percentile, round } from './stats'
import { writeRegistry } from './write-registry'

type Row = { benchmark: string; metric: string; value: number | string; target: string }

/** The four query kinds of the issue: one- and two-word names, with and without a country. */
function queryKinds(samples: RegistryCompany[]): Record<string, CompaniesQuery[]> {
  const random = seededRandom(5)
  const pick = () => samples[Math.floor(random() * samples.length)]!
  const words = (c: RegistryCompany) => c.name.split(/[\s&-]+/).filter(Boolean)
  const make = (two: boolean, country: boolean) =>
    Array.from({ length: 500 }, () => {
      const company = pick()
      const w = words(company)
      return {
        name: two ? w.slice(0, 2).join(' ') : w[0]!,
        country: country ? company.country : null,
        limit: 101,
      }
    })
  return {
    'one word': make(false, false),
    'two words': make(true, false),
    'one word + country': make(false, true),
    'two words + country': make(true, true),
  }
}

async function timeQueries(store: CompanyStore, queries: CompaniesQuery[]): Promise<number[]> {
  for (const query of queries.slice(0, 50)) await store.search(query) // warm-up
  const times: number[] = []
  for (const query of queries) {
    const started = performance.now()
    await store.search(query)
    times.push(performance.now() - started)
  }
  return times
}

/**
 * Companies in PostgreSQL: import rows/s and search p50/p95 at `BENCH_PG_RECORDS` generated companies (default
 * 1,000,000; 10,000,000 with `BENCH_PG_RECORDS=10000000`), side by side with the in-memory store on the same
 * records when they are a million or fewer, and the built provider's memory searching them and delivering a
 * million of them to S3 (`benchProviderProcess`; `BENCH_PG_PROCESS=off` skips it). Skipped without PostgreSQL's
 * binaries.
 */
export async function benchPostgres(): Promise<Row[]> {
  if (!findPostgresBinaries())
    return [{ benchmark: 'PostgreSQL companies', metric: 'skipped', value: 'no binaries', target: '' }]
  const count = Number(process.env.BENCH_PG_RECORDS ?? 1_000_000)
  const dir = mkdtempSync(join(tmpdir(), 'pf-bench-'))
  const postgres = await startPostgres({ settings: { shared_buffers: '256MB', max_wal_size: '4GB' } })
  const rows: Row[] = []
  try {
    const file = join(dir, 'registry-companies.jsonl')
    const samples = await writeRegistry(file, count)
    const started = performance.now()
    const outcome = await importCompanies({ databaseUrl: postgres.url, source: 'bench', files: [file] })
    const seconds = (performance.now() - started) / 1000
    rows.push({
      benchmark: `import ${outcome.imported} generated companies (COPY, indexes, swap)`,
      metric: 'rows/s',
      value: Math.round(outcome.imported / seconds),
      target: '>= 100000',
    })
    const logger = createLogger({ name: 'bench', level: 'silent' })
    const store = await PostgresCompanyStore.open({
      url: postgres.url,
      poolSize: 2,
      timeoutMs: 60_000,
      logger,
    })
    const kinds = queryKinds(samples)
    if (process.env.BENCH_PG_PROCESS !== 'off')
      rows.push(
        ...(await benchProviderProcess(
          postgres.url,
          count,
          Object.values(kinds).flatMap((queries) => queries.slice(0, 125)),
          Math.min(count, 1_000_000),
        )),
      )
    const memory = count <= 1_000_000 ? MemoryCompanyStore.build(loadCompaniesJsonl(file)) : undefined
    for (const [kind, queries] of Object.entries(kinds)) {
      const pg = await timeQueries(store, queries)
      const inMemory = memory ? await timeQueries(memory, queries) : []
      rows.push({
        benchmark: `search ${kind}, ${count} companies: PostgreSQL p50 / p95${memory ? ' (memory)' : ''}`,
        metric: 'ms',
        value:
          `${round(percentile(pg, 50))} / ${round(percentile(pg, 95))}` +
          (memory ? ` (${round(percentile(inMemory, 50), 3)} / ${round(percentile(inMemory, 95), 3)})` : ''),
        target: 'p95 <= 20 at 10M',
      })
    }
    await store.close()
  } finally {
    await postgres.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
