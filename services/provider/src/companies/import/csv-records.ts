import type { InputLine } from './read-bounded-lines'

/** A record of a `;` CSV file: its fields, or why it is refused; from `line`, over `lines` input lines. */
export type CsvRecord =
  { line: number; lines: number; fields: string[] } | { line: number; lines: number; rejected: string }

const SEMICOLON = 59
const QUOTE = 34

/**
 * The fields of one record, read a line at a time, as csv-parse reads the company-register files (`;`, `"`
 * quotes doubled inside, a quote opening a field only at its start, a record ending at a line end outside
 * quotes, one `\r` before it dropped): a quoted field may run over several lines. Past its bound a record keeps
 * following its quotes (to know where it ends) but no longer its text.
 */
class RecordFields {
  readonly fields: string[] = []
  private field = ''
  private quoted = false
  keep = true

  /** Reads the record's next line: `more` when a quoted field goes on, `done`, or why it is not CSV. */
  read(text: string): 'more' | 'done' | string {
    if (this.quoted) {
      if (this.keep) this.field += '\n'
    } else if (!text.includes('"')) {
      const cells = text.split(';')
      const last = cells.length - 1
      if (cells[last]?.endsWith('\r')) cells[last] = (cells[last] as string).slice(0, -1)
      if (this.keep) this.fields.push(...cells)
      return 'done'
    }
    const problem = this.scan(text)
    if (problem) return problem
    if (this.quoted) return 'more'
    this.push()
    return 'done'
  }

  private scan(text: string): string | undefined {
    let start = !this.quoted
    let closed = false
    for (let at = 0; at < text.length;) {
      if (this.quoted) {
        const quote = text.indexOf('"', at)
        if (quote === -1) return this.add(text.slice(at))
        this.add(text.slice(at, quote))
        if (text.charCodeAt(quote + 1) === QUOTE) this.add('"')
        else [this.quoted, closed] = [false, true]
        at = quote + (this.quoted ? 2 : 1)
        continue
      }
      const code = text.charCodeAt(at)
      if (code === SEMICOLON) {
        this.push()
        ;[start, closed] = [true, false]
        at += 1
      } else if (closed) {
        if (code === 13 && at === text.length - 1) return undefined
        return `a quoted field is followed by ${JSON.stringify(text[at])}, not ";"`
      } else if (code === QUOTE) {
        if (!start) return 'a quote inside an unquoted field'
        ;[this.quoted, start] = [true, false]
        at += 1
      } else {
        let end = at
        while (end < text.length && text.charCodeAt(end) !== SEMICOLON && text.charCodeAt(end) !== QUOTE)
          end += 1
        this.add(text.slice(at, end))
        start = false
        at = end
      }
    }
    if (!this.quoted && !closed && this.field.endsWith('\r')) this.field = this.field.slice(0, -1)
    return undefined
  }

  private add(text: string): undefined {
    if (this.keep) this.field += text
    return undefined
  }

  private push() {
    if (this.keep) this.fields.push(this.field)
    this.field = ''
  }
}

/**
 * The records of a `;` CSV file's lines, in batches as the lines come: blank lines between records are skipped;
 * a record is refused whole, with every line it covers, when a line of it is (too long, not the encoding), when
 * it is not CSV (a stray quote), when its lines together pass `maxRecordBytes`, or when a quote it opens is
 * never closed (it then runs to the end of the file, as csv-parse reads it: every line after it is counted).
 */
export async function* csvRecords(
  batches: AsyncIterable<InputLine[]>,
  maxRecordBytes: number,
): AsyncGenerator<CsvRecord[]> {
  let open: { line: number; bytes: number; fields: RecordFields; problem?: string } | undefined
  let last = 0
  for await (const batch of batches) {
    const records: CsvRecord[] = []
    const refuse = (from: number, to: number, rejected: string) =>
      records.push({ line: from, lines: to - from + 1, rejected })
    for (const input of batch) {
      last = input.line
      if ('rejected' in input) {
        if (open) refuse(open.line, input.line, `line ${input.line} of the record: ${input.rejected}`)
        else refuse(input.line, input.line, input.rejected)
        open = undefined
        continue
      }
      if (!open && !input.text.trim()) continue
      open ??= { line: input.line, bytes: 0, fields: new RecordFields() }
      open.bytes += input.bytes
      if (open.bytes > maxRecordBytes && !open.problem) {
        open.problem = `a record longer than ${maxRecordBytes} bytes (--max-line-bytes)`
        open.fields.keep = false
      }
      const read = open.fields.read(input.text)
      if (read === 'more') continue
      const problem =
        read === 'done'
          ? open.problem
          : input.line > open.line
            ? `a quote opened here runs to line ${input.line}, where ${read}`
            : read
      if (problem) refuse(open.line, input.line, problem)
      else records.push({ line: open.line, lines: input.line - open.line + 1, fields: open.fields.fields })
      open = undefined
    }
    if (records.length > 0) yield records
  }
  if (open)
    yield [{ line: open.line, lines: last - open.line + 1, rejected: 'a quote opened here is never closed' }]
}
