import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ClientBase } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { copyRow } from './copy-row'
import { companyFileFormat, readCompanyFile } from './read-company-file'
import type { BoundedLinesOptions } from './read-bounded-lines'

/** A record an import refused, and why: from `line` of `file`, over `lines` input lines. */
export interface Rejection {
  file: string
  line: number
  lines: number
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

/** What a copy read: companies copied, records refused, the input lines in all and inside refused records. */
export interface CopyCounts {
  records: number
  rejected: number
  lines: number
  rejectedLines: number
  firstRejection?: Rejection
}

export interface CopyOptions extends Omit<BoundedLinesOptions, 'signal'> {
  files: readonly string[]
  /** Stop at the first refused record (`--max-rejected 0`): nothing more is read. */
  stopAtFirstRejection: boolean
  onProgress?: (progress: ImportProgress) => void
  onReject?: (rejection: Rejection) => void
}

/** A source's ordinals are `position * SOURCE_STRIDE + row`: sources in first-import order, rows in file order. */
export const SOURCE_STRIDE = 2n ** 40n
const PROGRESS_ROWS = 50_000
const COPY_BATCH = 1000

/**
 * Streams every file's records into `table` through one `COPY ... FROM STDIN`, counting as it goes; a record
 * PostgreSQL could not store (`copyRow` throws) is refused like one that cannot be read. `signal` ends the read
 * and the COPY (pg-copy-streams sends CopyFail: nothing of it stays in the table).
 */
export async function copyCompanyFiles(
  client: ClientBase,
  { table, importId, firstOrdinal }: { table: string; importId: string; firstOrdinal: bigint },
  options: CopyOptions,
  signal?: AbortSignal,
): Promise<CopyCounts> {
  const counts: CopyCounts = { records: 0, rejected: 0, lines: 0, rejectedLines: 0 }
  const lines = copyLines(importId, firstOrdinal, options, counts, signal)
  await pipeline(Readable.from(lines), client.query(copyFrom(`COPY ${table} FROM STDIN`)), { signal })
  return counts
}

async function* copyLines(
  importId: string,
  firstOrdinal: bigint,
  options: CopyOptions,
  counts: CopyCounts,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const { files, onProgress, onReject } = options
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
    const read = { lines: 0 }
    const rows = readCompanyFile(file, companyFileFormat(file) ?? 'jsonl', {
      ...options,
      signal,
      firstNumber: counts.records,
      read,
    })
    for await (const batch of rows) {
      const copied: string[] = []
      const before = counts.records
      for (const row of batch) {
        let reason = 'rejected' in row ? row.rejected : undefined
        if (!('rejected' in row)) {
          try {
            copied.push(copyRow(importId, firstOrdinal + BigInt(counts.records), row.company))
            counts.records += 1
          } catch (error) {
            reason = (error as Error).message
          }
        }
        if (reason === undefined) continue
        const rejection = { file, line: row.line, lines: row.lines, reason }
        counts.rejected += 1
        counts.rejectedLines += row.lines
        counts.firstRejection ??= rejection
        onReject?.(rejection)
        if (options.stopAtFirstRejection) return
      }
      for (let at = 0; at < copied.length; at += COPY_BATCH) yield copied.slice(at, at + COPY_BATCH).join('')
      if (Math.floor(counts.records / PROGRESS_ROWS) > Math.floor(before / PROGRESS_ROWS)) progress()
    }
    counts.lines += read.lines
  }
}
