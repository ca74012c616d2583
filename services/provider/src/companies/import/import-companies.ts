import { Pool, type PoolClient } from 'pg'
import { migrateCompanies } from '../postgres/migrate-companies'
import {
  copyCompanyFiles,
  SOURCE_STRIDE,
  type CopyCounts,
  type ImportProgress,
  type Rejection,
} from './copy-company-files'
import { dropUnusedImports } from './drop-unused-imports'
import { indexCompanyImport } from './index-company-import'
import { ownImport, releaseImport } from './import-owner-lock'
import { DEFAULT_MAX_LINE_BYTES } from './read-bounded-lines'
import { companyFileFormat } from './read-company-file'
import { swapCompanyImport } from './swap-company-import'
import { DEFAULT_MAX_REJECTED, ImportRefusedError, wholeImportProblem } from './whole-import-rule'

export type { ImportProgress, Rejection }

export interface ImportCompaniesOptions {
  databaseUrl: string
  /** The source the rows replace (`--source`). */
  source: string
  files: readonly string[]
  /**
   * Share of the input lines that may be inside refused records (`--max-rejected`, default 0.01); past it, or
   * with no company read, the import is refused and the source keeps its rows. 0 stops at the first one.
   */
  maxRejected?: number
  /** Longest line, or CSV record, in bytes (`--max-line-bytes`, default 1 MiB); a longer one is refused. */
  maxLineBytes?: number
  /** The files' encoding when not UTF-8 (`--encoding`, an ASCII-compatible `TextDecoder` label). */
  encoding?: string
  /** Aborts the import (SIGINT, SIGTERM): its table is dropped, the source keeps its rows. */
  signal?: AbortSignal
  /** Called as rows are copied (every `PROGRESS_ROWS`) and at each phase. */
  onProgress?: (progress: ImportProgress) => void
  /** Called for each refused record. */
  onReject?: (rejection: Rejection) => void
  /** How long dropping an unused import may wait for a reader (default 5 s; it is retried next import). */
  cleanupLockTimeoutMs?: number
}

export interface ImportOutcome {
  imported: number
  rejected: number
  importId: string
  /** Replaced imports still read by a cursor when the import ended, dropped by the next one. */
  left: string[]
}

/**
 * Imports company files as one source: rows are copied (`COPY ... FROM STDIN`) into a table of this import,
 * owned through a session advisory lock (`ownImport`), indexed, then swapped in (`swapCompanyImport`); the
 * tables no search reads and no live import owns are dropped before and after (`dropUnusedImports`), so one
 * left by a crash goes with the next import. Searches see the previous rows until the swap commits, then these,
 * never a mix. An import replaces its source only with a whole file (`wholeImportProblem`); refused, failed
 * or aborted, it drops its table and leaves the previous rows.
 */
export async function importCompanies(options: ImportCompaniesOptions): Promise<ImportOutcome> {
  const unknown = options.files.filter((file) => !companyFileFormat(file))
  if (unknown.length > 0) throw new Error(`not a company file (.csv or .jsonl): ${unknown.join(', ')}`)
  // One connection for the load and the swap, two more for the index builds.
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: 3,
    application_name: 'pf-import-companies',
  })
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
  const { signal, source } = options
  const lockTimeoutMs = options.cleanupLockTimeoutMs ?? 5000
  await dropUnusedImports(client, lockTimeoutMs)
  await client.query('INSERT INTO company_source_positions (source) VALUES ($1) ON CONFLICT DO NOTHING', [
    source,
  ])
  const { rows } = await client.query<{ position: number; id: string }>(
    `SELECT position, nextval('company_import_ids')::text AS id FROM company_source_positions WHERE source = $1`,
    [source],
  )
  const { position, id: importId } = rows[0] as { position: number; id: string }
  const table = `companies_import_${importId}`
  // Held from before the table exists: a cleaner never finds it without its owner's lock.
  await ownImport(client, importId)
  let counts: CopyCounts
  try {
    await client.query(`CREATE TABLE ${table} (LIKE companies)`)
    try {
      counts = await loadTable(pool, client, { table, importId, position }, options)
      signal?.throwIfAborted()
      report(options, counts, 'swap')
      await swapCompanyImport(client, { table, importId, source, ...counts })
    } catch (error) {
      await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {})
      throw error
    }
  } finally {
    await releaseImport(client, importId).catch(() => {})
  }
  const { left } = await dropUnusedImports(client, lockTimeoutMs)
  return { imported: counts.records, rejected: counts.rejected, importId, left }
}

/** Copies the files into the import's table, refuses a partial result, then indexes it. */
async function loadTable(
  pool: Pool,
  client: PoolClient,
  { table, importId, position }: { table: string; importId: string; position: number },
  options: ImportCompaniesOptions,
): Promise<CopyCounts> {
  const maxRejected = options.maxRejected ?? DEFAULT_MAX_REJECTED
  await client.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_import CHECK (import_id = ${importId})`)
  const counts = await copyCompanyFiles(
    client,
    { table, importId, firstOrdinal: BigInt(position) * SOURCE_STRIDE },
    {
      files: options.files,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      encoding: options.encoding,
      stopAtFirstRejection: maxRejected === 0,
      onProgress: options.onProgress,
      onReject: options.onReject,
    },
    options.signal,
  )
  const problem = wholeImportProblem(counts, maxRejected)
  if (problem) throw new ImportRefusedError(`${problem}; the rows of "${options.source}" are unchanged`)
  report(options, counts, 'index')
  await indexCompanyImport(pool, client, table, options.signal)
  return counts
}

function report(options: ImportCompaniesOptions, counts: CopyCounts, phase: ImportProgress['phase']) {
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
