import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'pg'
import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { createLogger } from '@pf/service-kit'
import { importCompanies } from '../src/companies/import/import-companies'
import { PostgresCompanyStore } from '../src/companies/postgres/postgres-company-store'
import { referenceData } from './support-data'

const COMMAND = join(__dirname, '..', 'dist', 'import-companies.js')
const berlin = referenceData('companies-cc0', 'berlin.csv')
const london = referenceData('companies-cc0', 'london.csv')

/** Runs the built import command; resolves with its exit code, stdout and stderr. */
function runImport(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [COMMAND, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

const cleanup = createCleanup(afterAll)
let postgres: PostgresHandle
let store: PostgresCompanyStore
let folder: string
let mixed: string

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pf-import-'))
  cleanup.defer(() => rmSync(folder, { recursive: true, force: true }))
  // JSON Lines with bad rows: not JSON (line 2), no name (line 4), a NUL in a name (line 5); a blank line 6.
  mixed = join(folder, 'companies.jsonl')
  writeFileSync(
    mixed,
    [
      '{"id":"m1","name":"Müller Maschinenbau GmbH","country":"Germany","industry":"Machinery"}',
      '{"id":"m2","name":',
      '{"id":"m3","name":"Société Générale","country":"FR","city":"Paris"}',
      '{"id":"m4","country":"FR"}',
      '{"id":"m5","name":"Bad\\u0000Name"}',
      '',
      '{"name":"Tab\\tand\\\\backslash Ltd","country":"uk"}',
    ].join('\n'),
  )
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  const logger = createLogger({ name: 'test', level: 'silent' })
  store = cleanup.add(
    await PostgresCompanyStore.open({ url: postgres.url, poolSize: 4, timeoutMs: 10_000, logger }),
    (s) => s.close(),
  )
})

describe('import-companies (the built command)', () => {
  it('imports the good rows, reports each bad one with its file and line, and ends with the summary line', async () => {
    const { code, stdout, stderr } = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'mixed',
      mixed,
    ])
    expect(code).toBe(0)
    expect(stdout.trim().split('\n').pop()).toMatch(/^imported 3 companies \(3 rejected\) in \d+\.\d s$/)
    expect(stderr).toContain(`rejected ${mixed}:2: not JSON`)
    expect(stderr).toContain(`rejected ${mixed}:4: record has no name`)
    expect(stderr).toContain(`rejected ${mixed}:5: a field holds a NUL character`)
    // Not a terminal: progress is JSON lines.
    const progress = stderr.split('\n').filter((line) => line.startsWith('{'))
    expect(progress.map((line) => (JSON.parse(line) as { phase: string }).phase)).toEqual(
      expect.arrayContaining(['copy', 'index', 'swap']),
    )
    const found = await store.search({ name: 'tab and backslash', country: 'GB', limit: 5 })
    expect(found).toEqual([
      {
        id: 'companies.jsonl:6',
        name: 'Tab\tand\\backslash Ltd',
        country: 'GB',
        countryName: 'United Kingdom',
        industry: null,
        city: null,
        source: 'companies.jsonl',
      },
    ])
    expect((await store.search({ name: 'societe', limit: 5 })).map((c) => c.id)).toEqual(['m3'])
  })

  it('with --strict stops at the first bad row, exits 1 and leaves the previous rows', async () => {
    const { code, stderr } = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'mixed',
      '--strict',
      mixed,
    ])
    expect(code).toBe(1)
    expect(stderr).toContain(`import failed: ${mixed} line 2: not JSON (--strict: nothing imported)`)
    expect((await store.search({ name: 'muller', limit: 5 })).map((c) => c.id)).toEqual(['m1'])
  })

  it('refuses without a database URL or a file, and a file of an unknown kind, with usage (exit 2, 1)', async () => {
    expect((await runImport([mixed])).code).toBe(2)
    expect((await runImport(['--database-url', postgres.url])).stderr).toContain('no FILE')
    const unknown = await runImport(['--database-url', postgres.url, join(folder, 'list.xml')])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('not a company file (.csv or .jsonl)')
  })
})

describe('importCompanies: a source replaced atomically', () => {
  it('re-importing the same files is idempotent, and other sources are untouched', async () => {
    const first = await importCompanies({ databaseUrl: postgres.url, source: 'berlin', files: [berlin] })
    const before = await store.search({ country: 'DE', limit: 10_000 })
    const again = await importCompanies({ databaseUrl: postgres.url, source: 'berlin', files: [berlin] })
    expect(again.imported).toBe(first.imported)
    expect(await store.search({ country: 'DE', limit: 10_000 })).toEqual(before)
    expect(before).toHaveLength(first.imported)
    expect((await store.search({ name: 'muller', limit: 5 })).map((c) => c.id)).toEqual(['m1'])
  })

  it('swaps while a delivery cursor reads the previous rows: neither waits, the cursor reads its rows whole', async () => {
    await importCompanies({ databaseUrl: postgres.url, source: 'city', files: [berlin] })
    const germanBefore = (await store.search({ country: 'DE', limit: 10_000 })).length
    const reading = store.stream({ country: 'DE' })[Symbol.asyncIterator]()
    const firstRow = await reading.next()
    expect(firstRow.value).toMatchObject({ country: 'DE' })
    // The cursor holds the previous import's partition open; the swap must not wait for it.
    const swapped = await importCompanies({
      databaseUrl: postgres.url,
      source: 'city',
      files: [london],
      cleanupLockTimeoutMs: 200,
    })
    expect(swapped.left).toHaveLength(1) // still read: dropped by a later import
    const germanAfter = (await store.search({ country: 'DE', limit: 10_000 })).length
    expect(germanAfter).toBeLessThan(germanBefore) // the 'city' source's German rows are gone
    expect(await store.search({ country: 'GB', limit: 10_000 })).toHaveLength(1000 + 1)
    let rows = 1
    for (let next = await reading.next(); !next.done; next = await reading.next()) rows += 1
    expect(rows).toBe(germanBefore) // the previous 'city' import whole, as the cursor's snapshot saw it
    const later = await importCompanies({ databaseUrl: postgres.url, source: 'city', files: [london] })
    expect(later.left).toEqual([])
    const client = new Client({ connectionString: postgres.url })
    await client.connect()
    const { rows: tables } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_class WHERE relkind = 'r' AND relname LIKE 'companies_import_%'",
    )
    await client.end()
    expect(Number(tables[0]?.n)).toBe(3) // mixed, berlin, city: one table per source
  })
})
