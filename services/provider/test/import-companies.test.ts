import { execFileSync, spawn } from 'node:child_process'
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
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

/** Starts the built import command; `done` resolves with its exit code, stdout and stderr. */
function startImport(args: string[]) {
  const child = spawn(process.execPath, [COMMAND, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  )
  return { child, done }
}

/** Runs the built import command; resolves with its exit code, stdout and stderr. */
const runImport = (args: string[]) => startImport(args).done

/** Polls `check` until it holds (a hang guard: Jest's time-out ends a test that never sees it). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50))
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
  it('imports the good rows within --max-rejected, reports each bad one with its file and line, and ends with the summary line', async () => {
    // Three of its seven lines are refused: more than the default --max-rejected 0.01 allows.
    const { code, stdout, stderr } = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'mixed',
      '--max-rejected',
      '0.5',
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

  it.each([['--strict'], ['--max-rejected', '0'], []])(
    'with %p refuses at the first bad row (exit 1), naming it, and leaves the previous rows',
    async (...flags) => {
      const { code, stdout, stderr } = await runImport([
        '--database-url',
        postgres.url,
        '--source',
        'mixed',
        ...flags,
        mixed,
      ])
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr).toContain(`import refused: `)
      expect(stderr).toContain(`the first: ${mixed}:2: not JSON; the rows of "mixed" are unchanged`)
      expect((await store.search({ name: 'muller', limit: 5 })).map((c) => c.id)).toEqual(['m1'])
    },
  )

  it('refuses without a database URL or a file, and a file of an unknown kind, with usage (exit 2, 1)', async () => {
    expect((await runImport([mixed])).code).toBe(2)
    expect((await runImport(['--database-url', postgres.url])).stderr).toContain('no FILE')
    const unknown = await runImport(['--database-url', postgres.url, join(folder, 'list.xml')])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('not a company file (.csv or .jsonl)')
  })

  it.each([
    [['--strict', '--max-rejected', '0.1'], '--strict is --max-rejected 0'],
    [['--max-rejected', '1.5'], '--max-rejected: a share of the input lines, 0 to 1'],
    [['--max-rejected', 'many'], '--max-rejected: a share of the input lines, 0 to 1'],
    [['--max-line-bytes', '10'], '--max-line-bytes: a whole number of bytes'],
    [['--encoding', 'klingon'], '--encoding klingon: no such encoding'],
    [['--encoding', 'utf-16le'], '--encoding utf-16le: not ASCII-compatible'],
  ])('refuses the bounds %p with usage (exit 2)', async (flags, message) => {
    const { code, stderr } = await runImport(['--database-url', postgres.url, ...flags, mixed])
    expect(code).toBe(2)
    expect(stderr).toContain(message)
    expect(stderr).toContain('usage: import-companies')
  })

  it('--help names every option', async () => {
    const { code, stdout } = await runImport(['--help'])
    expect(code).toBe(0)
    for (const option of ['--max-rejected', '--strict', '--max-line-bytes', '--encoding', 'SIGTERM'])
      expect(stdout).toContain(option)
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

/** The import tables in the database, by name. */
async function importTables(): Promise<string[]> {
  const client = new Client({ connectionString: postgres.url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE 'companies_import_%' ORDER BY 1",
    )
    return rows.map((row) => row.name)
  } finally {
    await client.end()
  }
}

/** A file in the test's folder. */
function writeInput(name: string, content: string | Buffer): string {
  const path = join(folder, name)
  writeFileSync(path, content)
  return path
}

const companyLine = (id: string, name = `Company ${id} Ltd`) =>
  JSON.stringify({ id, name, country: 'NL', industry: 'Testing' })

describe('an import replaces a source only with a whole file (issue 35: refused, exit 1, source unchanged)', () => {
  const importInto = (source: string, ...rest: string[]) =>
    runImport(['--database-url', postgres.url, '--source', source, ...rest])
  let registers: { id: string }[]

  beforeAll(async () => {
    expect((await importInto('registers', berlin)).code).toBe(0)
    registers = await store.search({ country: 'DE', limit: 10_000 })
  })

  // Each case is refused whole, naming its first refused record, and changes neither the rows nor the tables.
  async function expectRefused(args: string[], ...messages: string[]) {
    const tables = await importTables()
    const { code, stdout, stderr } = await importInto('registers', ...args)
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    for (const message of ['import refused: ', ...messages]) expect(stderr).toContain(message)
    expect(stderr).toContain('the rows of "registers" are unchanged')
    expect(await store.search({ country: 'DE', limit: 10_000 })).toEqual(registers)
    expect(await importTables()).toEqual(tables)
  }

  it('a stray quote on line 3 that swallows the rest of the file into one record: its lines count, not 1 record', async () => {
    const lines = readFileSync(berlin, 'utf8').split('\n')
    lines[2] = (lines[2] as string).replace(';Totalenergies', ';"Totalenergies')
    const broken = writeInput('stray-quote.csv', lines.join('\n'))
    await expectRefused([broken], `of 1001 input lines`, `the first: ${broken}:3: `)
  })

  it('a CSV with the wrong delimiter: every line refused with its header, nothing replaced', async () => {
    const commas = writeInput('commas.csv', readFileSync(berlin, 'utf8').replaceAll(';', ','))
    await expectRefused(
      [commas],
      `no company was read from 1001 input lines; the first: ${commas}:1: the header: no "Company Name" column and no ";"`,
      '(1001 lines)',
    )
  })

  it('an empty file, or one of blank lines: no company read', async () => {
    await expectRefused([writeInput('empty.jsonl', '')], 'no company was read from 0 input lines')
    await expectRefused([writeInput('blank.csv', '\n\n\n')], 'no company was read from 3 input lines')
  })

  it('counts lines across files: a bad file among good ones is refused by its share', async () => {
    const bad = writeInput('bad.jsonl', Array.from({ length: 20 }, (_, i) => `{"id":"b${i}",`).join('\n'))
    await expectRefused([berlin, bad], `20 of 1021 input lines (1.96 %) are in refused records`)
    // Within the share it is imported, the bad rows reported.
    const { code, stdout } = await importInto('registers', '--max-rejected', '0.02', berlin, bad)
    expect(code).toBe(0)
    expect(stdout).toMatch(/^imported 1000 companies \(20 rejected\)/)
  })
})

describe('a bad line is a refused record with its file and line, never an abort (issue 35)', () => {
  const good = (count: number) => Array.from({ length: count }, (_, i) => companyLine(`g${i}`))

  it('a line past --max-line-bytes is refused unread (the rest imported); its bound is a setting', async () => {
    const lines = good(300)
    lines.splice(149, 0, companyLine('huge', `Huge ${'x'.repeat(2 * 1024 * 1024)}`))
    const file = writeInput('long-line.jsonl', lines.join('\n'))
    const { code, stdout, stderr } = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'long',
      file,
    ])
    expect(stderr).toContain(`rejected ${file}:150: the line is longer than 1048576 bytes (--max-line-bytes)`)
    expect({ code, summary: stdout.split(' in ')[0] }).toEqual({
      code: 0,
      summary: 'imported 300 companies (1 rejected)',
    })
    const lower = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'long',
      '--max-line-bytes',
      '1024',
      file,
    ])
    expect(lower.stderr).toContain(`rejected ${file}:150: the line is longer than 1024 bytes`)
  })

  it('a line that is not UTF-8 is refused with its file and line unless --encoding names the encoding', async () => {
    const latin1 = Buffer.from(
      [
        companyLine('l1', 'Mülleriana Maschinen GmbH'),
        companyLine('l2', 'Plain Ltd'),
        companyLine('l3', 'Çelik AS'),
      ].join('\n'),
      'latin1',
    )
    const file = writeInput('latin1.jsonl', latin1)
    const refused = await runImport(['--database-url', postgres.url, '--source', 'latin1', file])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`rejected ${file}:1: not UTF-8 (--encoding names another)`)
    expect(refused.stderr).toContain(`rejected ${file}:3: not UTF-8`)
    expect(await store.search({ name: 'mulleriana', limit: 5 })).toEqual([])
    const named = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'latin1',
      '--encoding',
      'latin1',
      file,
    ])
    expect(named.stdout).toMatch(/^imported 3 companies \(0 rejected\)/)
    expect((await store.search({ name: 'mulleriana', limit: 5 })).map((c) => c.name)).toEqual([
      'Mülleriana Maschinen GmbH',
    ])
    expect((await store.search({ name: 'celik', limit: 5 })).map((c) => c.name)).toEqual(['Çelik AS'])
  })

  it("a name whose folded words pass PostgreSQL's text-search limits is refused with its line, the rest imported", async () => {
    const lines = good(300)
    // "㌖" folds to "キロメートル": 400 of them are one word of 7,200 bytes (a lexeme holds 2,047).
    lines[49] = companyLine('long-word', `Kilo ${'㌖'.repeat(400)}`)
    // 20,000 distinct words of some 60 bytes each once folded: 1.2 MB (a tsvector holds 1 MB), from 300 KB.
    lines[99] = companyLine('many-words', Array.from({ length: 20_000 }, (_, i) => `㌖㌖㌖${i}`).join(' '))
    const file = writeInput('lexemes.jsonl', lines.join('\n'))
    const { code, stdout, stderr } = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'lexemes',
      file,
    ])
    expect(stderr).toContain(
      `rejected ${file}:50: the name has a folded word of 7200 bytes, longer than PostgreSQL's 2047-byte lexeme`,
    )
    expect(stderr).toMatch(
      new RegExp(
        `rejected ${file}:100: the name has folded words of \\d+ bytes in all, more than a PostgreSQL tsvector's 1048575`,
      ),
    )
    expect(stderr).not.toContain('    at ') // no stack trace
    expect({ code, summary: stdout.split(' in ')[0] }).toEqual({
      code: 0,
      summary: 'imported 298 companies (2 rejected)',
    })
  })
})

describe('no orphans: an interrupted import leaves no table the next one does not remove (issue 35)', () => {
  /**
   * An import reading a FIFO: it loads what the test writes and waits for more, its table created and its COPY
   * under way, for as long as the test wants. `end()` closes the FIFO (the import then finishes).
   */
  async function importFromFifo(name: string, source: string, lines: string[]) {
    const fifo = join(folder, `${name}.jsonl`)
    execFileSync('mkfifo', [fifo])
    // Read-write: opening does not wait for the reader, and the FIFO stays open until `end`.
    const fd = openSync(fifo, constants.O_RDWR)
    writeSync(fd, `${lines.join('\n')}\n`)
    const before = await importTables()
    const started = startImport(['--database-url', postgres.url, '--source', source, fifo])
    let table = ''
    await eventually(async () => {
      table = (await importTables()).find((name) => !before.includes(name)) ?? ''
      return table !== ''
    })
    let open = true
    const end = () => {
      if (open) closeSync(fd)
      open = false
    }
    cleanup.defer(end)
    return { ...started, table, write: (more: string[]) => writeSync(fd, `${more.join('\n')}\n`), end }
  }

  /** Whether a session still owns an import table (its advisory lock, class 7240025). */
  async function ownersLeft(): Promise<number> {
    const client = new Client({ connectionString: postgres.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 7240025 AND objsubid = 2",
      )
      return Number(rows[0]?.n)
    } finally {
      await client.end()
    }
  }

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s aborts the import with a message: its table dropped, the source unchanged',
    async (signal) => {
      const source = `signalled-${signal}`
      expect((await runImport(['--database-url', postgres.url, '--source', source, london])).code).toBe(0)
      const rows = await store.search({ country: 'GB', limit: 10_000 })
      const tables = await importTables()
      const running = await importFromFifo(`abort-${signal}`, source, [companyLine('a1'), companyLine('a2')])
      let stderr = ''
      running.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      running.child.kill(signal)
      // Aborted while its input still waits for more: the table is gone before the FIFO closes.
      await eventually(async () => stderr.includes('import interrupted'))
      expect(await importTables()).toEqual(tables)
      // (A process waits for its thread pool's reads to end before it exits: the FIFO's read needs its end.)
      running.end()
      const { code, stdout } = await running.done
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
      expect(stderr).toContain(`${signal}: aborting the import; the source keeps its rows`)
      expect(stderr).toContain(`import interrupted by ${signal}: nothing imported, the source keeps its rows`)
      expect(await store.search({ country: 'GB', limit: 10_000 })).toEqual(rows)
    },
  )

  it('a killed import leaves its table, which the next import (of any source) drops once its owner is gone', async () => {
    const killed = await importFromFifo('killed', 'killed', [companyLine('k1')])
    killed.child.kill('SIGKILL')
    await killed.done
    killed.end()
    expect(await importTables()).toContain(killed.table) // left by the crash
    await eventually(async () => (await ownersLeft()) === 0) // the server noticed the session's end
    const next = await runImport([
      '--database-url',
      postgres.url,
      '--source',
      'after-crash',
      mixed,
      '--max-rejected',
      '0.5',
    ])
    expect(next.code).toBe(0)
    expect(await importTables()).not.toContain(killed.table)
  })

  it("never touches a concurrent import's table, of another source: it owns it through its session", async () => {
    const slow = await importFromFifo('slow', 'slow', [
      companyLine('s1', 'Slowpoke One'),
      companyLine('s2', 'Slowpoke Two'),
    ])
    const other = await runImport(['--database-url', postgres.url, '--source', 'meanwhile', berlin])
    expect(other.code).toBe(0)
    expect(other.stderr).not.toContain(slow.table)
    expect(await importTables()).toContain(slow.table)
    slow.write([companyLine('s3', 'Slowpoke Three')])
    slow.end()
    const { code, stdout } = await slow.done
    expect({ code, summary: stdout.split(' in ')[0] }).toEqual({
      code: 0,
      summary: 'imported 3 companies (0 rejected)',
    })
    expect((await store.search({ name: 'slowpoke', limit: 10 })).map((c) => c.id)).toEqual(['s1', 's2', 's3'])
  })
})
