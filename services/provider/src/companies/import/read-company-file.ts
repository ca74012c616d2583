import { basename } from 'node:path'
import { companyFromCsvRow } from '../../datasets/load-companydata-csv'
import { companyFromJsonRecord } from '../../datasets/load-jsonl'
import type { Company } from '../../datasets/records'
import { csvRecords } from './csv-records'
import { readBoundedLines, type BoundedLinesOptions, type InputLine } from './read-bounded-lines'

/**
 * One record of a company file: a company, or why it is refused, from `line` over `lines` input lines (a CSV
 * record may span several; a refused header covers the whole file).
 */
export type CompanyRow =
  { line: number; lines: number; company: Company } | { line: number; lines: number; rejected: string }

/** How a company file is read: the kit's JSON Lines, or the `;`-separated company-register CSV. */
export type CompanyFileFormat = 'jsonl' | 'csv'

/** The format of a file by its name (`.jsonl`, `.csv`), or undefined. */
export function companyFileFormat(path: string): CompanyFileFormat | undefined {
  if (path.endsWith('.jsonl')) return 'jsonl'
  if (path.endsWith('.csv')) return 'csv'
  return undefined
}

export interface CompanyFileOptions extends BoundedLinesOptions {
  /** CSV: the companies before this file, as `loadDatasets` numbers them (ids of rows without one). */
  firstNumber: number
  /** Set to the file's input lines as they are read (blank ones included). */
  read: { lines: number }
}

/**
 * The records of a company file, streamed in batches (never held whole, each line bounded: `readBoundedLines`),
 * with the in-memory load's mapping (`companyFromCsvRow`, `companyFromJsonRecord`) and ids: a row without an id
 * is `<file>:<n>`, where `n` counts from `firstNumber + 1` (JSON Lines: from 1, the file's non-blank lines).
 */
export function readCompanyFile(
  path: string,
  format: CompanyFileFormat,
  options: CompanyFileOptions,
): AsyncGenerator<CompanyRow[]> {
  return format === 'csv' ? readCsv(path, options) : readJsonl(path, options)
}

async function* countedLines(path: string, options: CompanyFileOptions): AsyncGenerator<InputLine[]> {
  for await (const batch of readBoundedLines(path, options)) {
    options.read.lines = (batch[batch.length - 1] as InputLine).line
    yield batch
  }
}

async function* readJsonl(path: string, options: CompanyFileOptions): AsyncGenerator<CompanyRow[]> {
  const source = basename(path)
  let record = 0
  for await (const batch of countedLines(path, options)) {
    const rows: CompanyRow[] = []
    for (const input of batch) {
      if ('rejected' in input) {
        record += 1
        rows.push({ line: input.line, lines: 1, rejected: input.rejected })
        continue
      }
      const text = input.text.trim()
      if (!text) continue
      record += 1
      rows.push({ line: input.line, lines: 1, ...jsonCompany(text, source, record) })
    }
    yield rows
  }
}

function jsonCompany(text: string, source: string, record: number) {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { rejected: 'not JSON' }
  }
  const company = companyFromJsonRecord(value, source, record)
  return typeof company === 'string' ? { rejected: `record ${company}` } : { company }
}

async function* readCsv(path: string, options: CompanyFileOptions): AsyncGenerator<CompanyRow[]> {
  const source = basename(path)
  let header: string[] | undefined
  let refused: { line: number; rejected: string } | undefined
  let named = 0
  for await (const batch of csvRecords(countedLines(path, options), options.maxLineBytes)) {
    const rows: CompanyRow[] = []
    for (const record of batch) {
      if (refused) continue
      if (!header) {
        const problem = 'rejected' in record ? record.rejected : headerProblem(record.fields)
        if (problem) refused = { line: record.line, rejected: `the header: ${problem}` }
        else if ('fields' in record) header = record.fields
        continue
      }
      if ('rejected' in record) {
        rows.push(record)
        continue
      }
      const row = csvRow(header, record.fields)
      if (!row['Company Name']) {
        rows.push({ line: record.line, lines: record.lines, rejected: 'no Company Name' })
        continue
      }
      named += 1
      const company = companyFromCsvRow(row, source, options.firstNumber + named)
      rows.push({ line: record.line, lines: record.lines, company })
    }
    yield rows
  }
  // A header we cannot read makes every line of the file unreadable: all of them count as rejected.
  if (refused) yield [{ ...refused, lines: options.read.lines - refused.line + 1 }]
}

/**
 * The cells by column name, as csv-parse's `columns: true` gives them (a repeated column: the last one), in an
 * object without a prototype (a column named `__proto__` is a cell like any other).
 */
function csvRow(header: readonly string[], fields: readonly string[]): Record<string, string> {
  const row = Object.create(null) as Record<string, string>
  const count = Math.min(header.length, fields.length)
  for (let index = 0; index < count; index += 1) row[header[index] as string] = fields[index] as string
  return row
}

function headerProblem(fields: readonly string[]): string | undefined {
  if (fields.includes('Company Name')) return undefined
  return fields.length === 1
    ? 'no "Company Name" column and no ";" (a company-register CSV is ";"-separated)'
    : 'no "Company Name" column'
}
