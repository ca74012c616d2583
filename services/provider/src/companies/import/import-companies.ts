import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Pool, type PoolClient } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { COUNTRY_WORDS } from '../postgres/company-lexemes'
import { migrateCompanies } from '../postgres/migrate-companies'
import { copyRow } from './copy-row'
import { companyFileFormat, readCompanyFile } from './read-company-file'
import { dropReplacedImports, swapCompanyImport } from './swap-company-import'

/** A row an import refused, and why. */
export interface Rejection {
  file: string
  line: number
  reason: string
}

export interface ImportProgress {
  phase: 'copy' | 'index' | 'swap'
  file: string
  files: number
  fileIndex: number
  imported: number
  rejected: number
}

export interface ImportCompaniesOptions {
  databaseUrl: string
  /** The source the rows replace (`--source`). */
  source: string
  files: readonly string[]
  /** Stop at the first bad row, importing nothing (`--strict`). */
  strict?: boolean
  /** Called as rows are copied (every `PROGRESS_ROWS`) and at each phase. */
  onProgress?: (progress: ImportProgress) => void
  /** Called for each refused row. */
  onReject?: (rejection: Rejection) => void
  /** How long dropping a replaced import may wait for a reader (default 5 s; it is retried next import). */
  cleanupLockTimeoutMs?: number
}

export interface ImportOutcome {
  imported: number
  rejected: number
  importId: string
  /** Replaced imports still read by a cursor when the import ended, dropped by the next one. */
  left: string[]
}

/** A source's ordinals are `position * SOURCE_STRIDE + row`: sources in first-import order, rows in file order. */
const SOURCE_STRIDE = 2n ** 40n
const PROGRESS_ROWS = 50_000
const COPY_BATCH = 1000

/**
 * Imports company files as one source: rows are copied (`COPY ... FROM STDIN`) into a table of this import,
 * indexed, then swapped in (`swapCompanyImport`); the imports it replaced are dropped when no reader holds them
 * (`dropReplacedImports`). Searches see the previous rows until the swap commits, then these, never a mix; a
 * failed import drops its table and leaves the previous rows. Bad rows are counted and reported, and only
 * stop the import when `strict`.
 */
export async function importCompanies(options: ImportCompaniesOptions): Promise<ImportOutcome> {
  const unknown = options.files.filter((file) => !companyFileFormat(file))
  if (unknown.length > 0) throw new Error(`not a company file (.csv or .jsonl): ${unknown.join(', ')}`)
  // One connection for the load and the swap, two more for the index builds.
  const pool = new Pool({ connectionString: options.databaseUrl, max: 3 })
  pool.on('error', () => {}) // an idle connection's loss surfaces on the next query
  try {
    await migrateCompanies(pool)
    const client = await pool.connect()
    try {
      return await importWith(pool, client, options)
    } finally {
      client.release()
    }
  } finally {
    await pool.end()
  }
}

async function importWith(
  pool: Pool,
  client: PoolClient,
  options: ImportCompaniesOptions,
): Promise<ImportOutcome> {
  await client.query('INSERT INTO company_source_positions (source) VALUES ($1) ON CONFLICT DO NOTHING', [
    options.source,
  ])
  const { rows } = await client.query<{ position: number; id: string }>(
    `SELECT position, nextval('company_import_ids')::text AS id FROM company_source_positions WHERE source = $1`,
    [options.source],
  )
  const { position, id: importId } = rows[0] as { position: number; id: string }
  const table = `companies_import_${importId}`
  await client.query(`CREATE TABLE ${table} (LIKE companies)`)
  try {
    await client.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_import CHECK (import_id = ${importId})`)
    const counts = await copyFiles(client, table, importId, BigInt(position) * SOURCE_STRIDE, options)
    report(options, counts, 'index')
    await indexTable(pool, table)
    report(options, counts, 'swap')
    await swapCompanyImport(client, { table, importId, source: options.source, ...counts })
    const { left } = await dropReplacedImports(client, options.cleanupLockTimeoutMs ?? 5000)
    return { imported: counts.records, rejected: counts.rejected, importId, left }
  } catch (error) {
    await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {})
    throw error
  }
}

function report(
  options: ImportCompaniesOptions,
  counts: { records: number; rejected: number },
  phase: ImportProgress['phase'],
) {
  const { files } = options
  options.onProgress?.({
    phase,
    file: files[files.length - 1] ?? '',
    files: files.length,
    fileIndex: files.length,
    imported: counts.records,
    rejected: counts.rejected,
  })
}

/** The same indexes as `companies`' (so ATTACH adopts them). */
const INDEXES = [
  `USING gin (name_words, ${COUNTRY_WORDS})`,
  '(country, ordinal)',
  '(ordinal)',
  'USING gin (industry_words)',
]

/**
 * Builds the indexes once, after the load (not row by row), two at a time on connections of their own: CREATE
 * INDEX takes SHARE on the table, which does not conflict with itself, and PostgreSQL builds a GIN index on one
 * core only (parallel GIN builds came in version 18), so two builds use two cores. The name index, the longest,
 * goes first.
 */
async function indexTable(pool: Pool, table: string): Promise<void> {
  const queue = [...INDEXES]
  const worker = async () => {
    const client = await pool.connect()
    try {
      await client.query(`SET maintenance_work_mem = '256MB'`)
      for (let index = queue.shift(); index; index = queue.shift())
        await client.query(`CREATE INDEX ON ${table} ${index}`)
    } finally {
      client.release()
    }
  }
  await Promise.all([worker(), worker()])
  await pool.query(`ANALYZE ${table}`)
}

/** Streams every file's rows into `table` through one COPY; returns the rows copied and refused. */
async function copyFiles(
  client: PoolClient,
  table: string,
  importId: string,
  firstOrdinal: bigint,
  options: ImportCompaniesOptions,
): Promise<{ records: number; rejected: number }> {
  const counts = { records: 0, rejected: 0 }
  const lines = copyLines(importId, firstOrdinal, options, counts)
  await pipeline(Readable.from(lines), client.query(copyFrom(`COPY ${table} FROM STDIN`)))
  return counts
}

async function* copyLines(
  importId: string,
  firstOrdinal: bigint,
  options: ImportCompaniesOptions,
  counts: { records: number; rejected: number },
): AsyncGenerator<string> {
  const { files, strict, onProgress, onReject } = options
  let batch: string[] = []
  for (const [index, file] of files.entries()) {
    const progress = () =>
      onProgress?.({
        phase: 'copy',
        file,
        files: files.length,
        fileIndex: index + 1,
        imported: counts.records,
        rejected: counts.rejected,
      })
    progress()
    for await (const row of readCompanyFile(file, companyFileFormat(file) ?? 'jsonl', counts.records)) {
      let reason = 'rejected' in row ? row.rejected : undefined
      if (!('rejected' in row)) {
        try {
          batch.push(copyRow(importId, firstOrdinal + BigInt(counts.records), row.company))
          counts.records += 1
        } catch (error) {
          reason = (error as Error).message
        }
      }
      if (reason !== undefined) {
        counts.rejected += 1
        onReject?.({ file, line: row.line, reason })
        if (strict) throw new Error(`${file} line ${row.line}: ${reason} (--strict: nothing imported)`)
      }
      if (batch.length >= COPY_BATCH) {
        yield batch.join('')
        batch = []
      }
      if (counts.records % PROGRESS_ROWS === 0 && reason === undefined) progress()
    }
  }
  if (batch.length > 0) yield batch.join('')
}
