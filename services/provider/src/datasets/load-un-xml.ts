import { SaxesParser } from 'saxes'
import { ListFormatError } from './list-format-error'
import { namesOf, type FoundName } from './listed-names'
import { normalizeCountry } from './normalize-country'
import type { SanctionEntry } from './records'

/** What a UN XML file holds: its entries, and the list's version (the `dateGenerated` of its root). */
export interface UnList {
  entries: SanctionEntry[]
  version: string | null
}

export const UN_SOURCE = 'UN Security Council Consolidated List'

const NAME_PARTS = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
const ISO_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/
// UN alias qualities: "Good" and "a.k.a." are aliases, "Low" is a weak one, "f.k.a." a former name.
const ALIAS_KIND: Record<string, FoundName['kind']> = { low: 'weak-alias', 'f.k.a.': 'previous' }

/** One INDIVIDUAL or ENTITY as it is read, element by element. */
class UnRecord {
  readonly fields = new Map<string, string>()
  readonly names: FoundName[] = []
  readonly countries = new Set<string>()
  readonly nationalities = new Set<string>()
  readonly birthDates = new Set<string>()
  private alias: { quality?: string; name?: string } = {}
  private birth = new Map<string, string>()

  constructor(readonly type: 'individual' | 'entity') {}

  /** The text of element `name`, a child of `parent`, once it closes. */
  read(parent: string, name: string, text: string): void {
    if (parent === 'INDIVIDUAL' || parent === 'ENTITY') {
      if (name === 'NAME_ORIGINAL_SCRIPT') this.names.push({ name: text, kind: 'original-script' })
      else this.fields.set(name, text)
    } else if (parent.endsWith('_ALIAS')) {
      if (name === 'QUALITY') this.alias.quality = text
      if (name === 'ALIAS_NAME') this.alias.name = text
      if (name === 'DATE_OF_BIRTH' && ISO_DATE.test(text)) this.birthDates.add(text)
    } else if (parent === 'NATIONALITY' && name === 'VALUE') {
      const code = normalizeCountry(text)
      if (code) this.nationalities.add(code)
    } else if (parent.endsWith('_ADDRESS') && name === 'COUNTRY') {
      const code = normalizeCountry(text)
      if (code) this.countries.add(code)
    } else if (parent.endsWith('_DATE_OF_BIRTH')) this.birth.set(name, text)
  }

  /** An element closed: an alias or a date of birth is complete. */
  close(name: string): void {
    if (name.endsWith('_ALIAS')) {
      const quality = this.alias.quality || undefined
      const kind = ALIAS_KIND[(quality ?? '').toLowerCase()] ?? 'alias'
      this.names.push({ name: this.alias.name, kind, quality })
      this.alias = {}
    } else if (name.endsWith('_DATE_OF_BIRTH')) {
      const [date, year, from, to] = ['DATE', 'YEAR', 'FROM_YEAR', 'TO_YEAR'].map((f) => this.birth.get(f))
      if (date && ISO_DATE.test(date)) this.birthDates.add(date)
      else if (year && /^\d{4}$/.test(year)) this.birthDates.add(year)
      if (from && to && /^\d{4}$/.test(from) && /^\d{4}$/.test(to)) this.birthDates.add(`${from}/${to}`)
      this.birth = new Map()
    }
  }

  /** The entry, or why the record cannot be one. */
  entry(): SanctionEntry | string {
    const id = this.fields.get('REFERENCE_NUMBER')
    if (!id) return 'a record without REFERENCE_NUMBER'
    const primary = NAME_PARTS.map((part) => this.fields.get(part))
      .filter(Boolean)
      .join(' ')
    const names = namesOf([{ name: primary, kind: 'primary' }, ...this.names])
    if (!names) return `record ${id} has no name`
    const dataId = this.fields.get('DATAID')
    return {
      id,
      ...names,
      type: this.type,
      programs: [this.fields.get('UN_LIST_TYPE')].filter((p): p is string => Boolean(p)),
      countries: [...this.countries],
      remarks: this.fields.get('COMMENTS1') || null,
      source: UN_SOURCE,
      ...(this.birthDates.size > 0 ? { birthDates: [...this.birthDates] } : {}),
      ...(this.nationalities.size > 0 ? { nationalities: [...this.nationalities] } : {}),
      ...(dataId ? { sameAs: [`unsc-${dataId}`] } : {}),
    }
  }
}

/**
 * The UN Security Council Consolidated List in its XML layout (`CONSOLIDATED_LIST` of `INDIVIDUALS` and
 * `ENTITIES`), read as a stream with `saxes` (no DOM: the file is never held as a tree): individuals named by
 * FIRST_NAME … FOURTH_NAME in order, entities by FIRST_NAME; aliases with their QUALITY (Low: a weak alias,
 * f.k.a.: a former name), NAME_ORIGINAL_SCRIPT, nationalities, address countries, dates of birth (exact,
 * approximate, years and ranges), REFERENCE_NUMBER as the id and DATAID as `unsc-<DATAID>`. Malformed XML or a
 * record without reference number or name is a `ListFormatError` at its line and column.
 */
export async function parseUnXml(chunks: AsyncIterable<Uint8Array>, file: string): Promise<UnList> {
  const parser = new SaxesParser({ position: true })
  const entries: SanctionEntry[] = []
  const path: string[] = []
  let version: string | null = null
  let record: UnRecord | undefined
  let text = ''
  let problem: ListFormatError | undefined
  const fail = (message: string) =>
    (problem ??= new ListFormatError(file, { line: parser.line, column: parser.column + 1 }, message))
  parser.on('opentag', (tag) => {
    path.push(tag.name)
    text = ''
    if (path.length === 1 && tag.name !== 'CONSOLIDATED_LIST')
      fail(`the root element is ${tag.name}, not CONSOLIDATED_LIST`)
    const generated = tag.attributes.dateGenerated
    if (path.length === 1) version = typeof generated === 'string' ? generated : null
    if (path.length === 3 && (tag.name === 'INDIVIDUAL' || tag.name === 'ENTITY'))
      record = new UnRecord(tag.name === 'INDIVIDUAL' ? 'individual' : 'entity')
  })
  parser.on('text', (value) => (text += value))
  parser.on('closetag', (tag) => {
    const parent = path[path.length - 2] ?? ''
    path.pop()
    if (record && path.length === 2) {
      const entry = record.entry()
      if (typeof entry === 'string') fail(entry)
      else entries.push(entry)
      record = undefined
    } else if (record) {
      const value = text.trim()
      if (value) record.read(parent, tag.name, value)
      record.close(tag.name)
    }
    text = ''
  })
  await feed(parser, chunks, file, () => problem)
  return { entries, version }
}

/** Writes every chunk to the parser; its errors become a `ListFormatError` where it stopped, a record's its own. */
async function feed(
  parser: SaxesParser,
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  problem: () => ListFormatError | undefined,
): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let offset = 0
  const at = () => ({ line: parser.line, column: parser.column + 1 })
  try {
    for await (const chunk of chunks) {
      let text: string
      try {
        text = decoder.decode(chunk, { stream: true })
      } catch {
        throw new ListFormatError(file, { byte: offset }, 'not UTF-8 (in the chunk starting here)')
      }
      offset += chunk.length
      parser.write(text)
      const found = problem()
      if (found) throw found
    }
    parser.close()
  } catch (error) {
    if (error instanceof ListFormatError) throw error
    throw new ListFormatError(file, at(), (error as Error).message.replace(/^\d+:\d+: /, ''))
  }
  const found = problem()
  if (found) throw found
}
