import { parse } from 'csv-parse/sync'
import { ListFormatError } from './list-format-error'

/** One data row of a CSV file with a header row: its cells by column name, and the line it ends on. */
export interface CsvRecord {
  cells: Record<string, string>
  line: number
}

/**
 * The rows of a list file with a header row (the CSL's CSV, the DPL's tab-separated text): every row must have
 * the header's columns and properly closed quotes, else a `ListFormatError` names the line (csv-parse's own).
 * Cells are trimmed; `required` columns must be in the header.
 */
export function readCsvRecords(
  text: string,
  file: string,
  { delimiter = ',', required = [] }: { delimiter?: string; required?: readonly string[] } = {},
): CsvRecord[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[]
  try {
    rows = parse(text, {
      bom: true,
      columns: true,
      delimiter,
      info: true,
      skip_empty_lines: true,
      trim: true,
    }) as typeof rows
  } catch (error) {
    const line = (error as { lines?: unknown }).lines
    const message = (error as Error).message.replace(/ (?:on|at) line \d+\b.*$/, '')
    throw new ListFormatError(file, typeof line === 'number' ? { line } : undefined, message)
  }
  const header = rows[0] ? Object.keys(rows[0].record) : []
  const missing = required.filter((column) => rows.length > 0 && !header.includes(column))
  if (missing.length > 0)
    throw new ListFormatError(file, { line: 1 }, `the header has no column ${missing.join(', ')}`)
  return rows.map(({ record, info }) => ({ cells: record, line: info.lines }))
}

/** The `;`-separated values of a cell ("1974; 1975"), trimmed, without blanks. */
export const splitCell = (cell: string | undefined): string[] =>
  (cell ?? '')
    .split(';')
    .map((value) => value.trim())
    .filter(Boolean)
