import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { countryName, normalizeCountry } from './normalize-country'
import type { Company, SanctionEntry, SanctionEntryType } from './records'

function readLines(path: string): Record<string, unknown>[] {
  return parseLines(readFileSync(path, 'utf8'), basename(path))
}

function parseLines(content: string, source: string): Record<string, unknown>[] {
  return content
    .split('\n')
    .map((line, index) => [line.trim(), index + 1] as const)
    .filter(([line]) => line.length > 0)
    .map(([line, number]) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch {
        throw new Error(`${source} line ${number} is not JSON`)
      }
    })
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null)
const list = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

/** Companies in JSON Lines: `{"id","name","country","industry","city"}` per line; `name` required. */
export function loadCompaniesJsonl(path: string): Company[] {
  const source = basename(path)
  return readLines(path).map((line, index) => {
    const company = companyFromJsonRecord(line, source, index + 1)
    if (typeof company === 'string') throw new Error(`${source} record ${index + 1} ${company}`)
    return company
  })
}

/**
 * One company of a JSON Lines record, or why it is none ("has no name"); `number` (the record's, from 1) makes
 * its id when it has none. Shared by the in-memory load and `import-companies`.
 */
export function companyFromJsonRecord(record: unknown, source: string, number: number): Company | string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'is not an object'
  const line = record as Record<string, unknown>
  const name = text(line.name)
  if (!name) return 'has no name'
  const country = normalizeCountry(text(line.country))
  return {
    id: text(line.id) ?? `${source}:${number}`,
    name,
    country,
    countryName: countryName(country),
    industry: text(line.industry),
    city: text(line.city),
    source,
  }
}

/**
 * Sanctioned parties in JSON Lines: `{"id","name","type","programs","aliases","countries","remarks"}` per
 * line; `id` and `name` required, `countries` as names or codes.
 */
export function loadSanctionsJsonl(path: string): SanctionEntry[] {
  return parseSanctionsJsonl(readFileSync(path, 'utf8'), basename(path))
}

/** `loadSanctionsJsonl` on text already read (a file fetched from a URL, say). */
export function parseSanctionsJsonl(content: string, source: string): SanctionEntry[] {
  return parseLines(content, source).map((line, index) => {
    const id = text(line.id)
    const name = text(line.name)
    if (!id || !name) throw new Error(`${source} record ${index + 1} needs an id and a name`)
    const type = text(line.type) as SanctionEntryType | null
    return {
      id,
      name,
      type: type && ['individual', 'entity', 'vessel', 'aircraft'].includes(type) ? type : 'entity',
      programs: list(line.programs),
      aliases: list(line.aliases),
      countries: list(line.countries)
        .map(normalizeCountry)
        .filter((c): c is string => c !== null),
      remarks: text(line.remarks),
      source,
    }
  })
}
