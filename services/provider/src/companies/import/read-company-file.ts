import { createReadStream } from 'node:fs'
import { basename } from 'node:path'
import { createInterface } from 'node:readline'
import { parse } from 'csv-parse'
import { companyFromCsvRow } from '../../datasets/load-companydata-csv'
import { companyFromJsonRecord } from '../../datasets/load-jsonl'
import type { Company } from '../../datasets/records'

/** One row of a company file: a company, or why the row is refused, with the line it is on. */
export type CompanyRow = { line: number; company: Company } | { line: number; rejected: string }

/** How a company file is read: the kit's JSON Lines, or the `;`-separated company-register CSV. */
export type CompanyFileFormat = 'jsonl' | 'csv'

/** The format of a file by its name (`.jsonl`, `.csv`), or undefined. */
export function companyFileFormat(path: string): CompanyFileFormat | undefined {
  if (path.endsWith('.jsonl')) return 'jsonl'
  if (path.endsWith('.csv')) return 'csv'
  return undefined
}

/**
 * The rows of a company file, streamed (never held whole), with the in-memory load's mapping
 * (`companyFromCsvRow`, `companyFromJsonRecord`) and ids: a row without an id is `<file>:<n>`, where `n`
 * counts from `firstNumber + 1` (CSV: the companies before this file, as `loadDatasets` numbers them).
 */
export function readCompanyFile(
  path: string,
  format: CompanyFileFormat,
  firstNumber: number,
): AsyncGenerator<CompanyRow> {
  return format === 'csv' ? readCsv(path, firstNumber) : readJsonl(path)
}

async function* readJsonl(path: string): AsyncGenerator<CompanyRow> {
  const source = basename(path)
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })
  let line = 0
  let record = 0
  for await (const raw of lines) {
    line += 1
    const text = raw.replace(/^\uFEFF/, '').trim()
    if (!text) continue
    record += 1
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      yield { line, rejected: 'not JSON' }
      continue
    }
    const company = companyFromJsonRecord(value, source, record)
    yield typeof company === 'string' ? { line, rejected: `record ${company}` } : { line, company }
  }
}

async function* readCsv(path: string, firstNumber: number): AsyncGenerator<CompanyRow> {
  const source = basename(path)
  // A row csv-parse cannot read (an unclosed quote) is skipped and reported, not the end of the file.
  const skipped: CompanyRow[] = []
  const parser = createReadStream(path).pipe(
    parse({
      delimiter: ';',
      bom: true,
      columns: true,
      relax_column_count: true,
      info: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        const line = (error as { lines?: number } | undefined)?.lines ?? 0
        skipped.push({
          line,
          rejected: error?.message.replace(/ (?:on|at) line \d+\b.*$/, '') ?? 'unreadable',
        })
      },
    }),
  )
  let named = 0
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>
    info: { lines: number }
  }>) {
    yield* skipped.splice(0)
    if (!record['Company Name']) {
      yield { line: info.lines, rejected: 'no Company Name' }
      continue
    }
    named += 1
    yield { line: info.lines, company: companyFromCsvRow(record, source, firstNumber + named) }
  }
  yield* skipped.splice(0)
}
