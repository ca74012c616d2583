import { ListFormatError } from './list-format-error'
import { listedBirthDate } from './listed-birth-date'
import { namesOf } from './listed-names'
import { normalizeCountry } from './normalize-country'
import { readCsvRecords, splitCell, type CsvRecord } from './read-csv-records'
import type { SanctionEntry, SanctionEntryType } from './records'

const TYPES: Record<string, SanctionEntryType> = {
  individual: 'individual',
  entity: 'entity',
  vessel: 'vessel',
  aircraft: 'aircraft',
}

/**
 * The name of a CSL sub-list from its `source` value: the abbreviation it gives in parentheses, lower-cased
 * ("Specially Designated Nationals (SDN) - Treasury Department" → `sdn`), else the value as a slug.
 */
export function cslSubListName(source: string): string {
  const abbreviation = /\(([^)]+)\)/.exec(source)?.[1] ?? source
  return abbreviation
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

const codes = (values: string[]) => [
  ...new Set(values.map(normalizeCountry).filter((code): code is string => code !== null)),
]

/** The country codes closing each `;`-separated address ("…, Miami, FL, 33130, US"). */
const addressCountries = (addresses: string | undefined) =>
  codes(splitCell(addresses).map((address) => address.split(',').pop() ?? ''))

function cslEntry({ cells, line }: CsvRecord, file: string): SanctionEntry | undefined {
  const names = namesOf([
    { name: cells.name, kind: 'primary' },
    ...splitCell(cells.alt_names).map((name) => ({ name, kind: 'alias' as const })),
  ])
  if (!names) return undefined
  const source = cells.source ?? ''
  const number = cells.entity_number
  const birthDates = splitCell(cells.dates_of_birth)
    .map(listedBirthDate)
    .filter((date): date is string => date !== null)
  const nationalities = codes([...splitCell(cells.citizenships), ...splitCell(cells.nationalities)])
  return {
    id: cells._id || cells.id || number || `${file}:${line}`,
    ...names,
    type: TYPES[(cells.type ?? '').toLowerCase()] ?? 'unknown',
    programs: splitCell(cells.programs),
    countries: addressCountries(cells.addresses),
    remarks: cells.remarks || null,
    source,
    ...(birthDates.length > 0 ? { birthDates } : {}),
    ...(nationalities.length > 0 ? { nationalities } : {}),
    // OFAC's entries in the CSL keep OFAC's own numbers (OpenSanctions: ofac-<number>).
    ...(number && /Treasury/i.test(source) ? { sameAs: [`ofac-${number}`] } : {}),
  }
}

/**
 * The US Consolidated Screening List as trade.gov exports it (CSV with a header row: `source`, `entity_number`,
 * `type`, `programs`, `name`, `addresses`, `remarks`, `alt_names`, `citizenships`, `dates_of_birth`,
 * `nationalities`, …; several values in a cell are `;`-separated). Each entry keeps its `source` (the sub-list:
 * `cslSubListName`). Ids: the export's `_id` when it has one, else the entity number, else `<file>:<line>`.
 */
export function parseUsCsl(text: string, file: string): SanctionEntry[] {
  return readCsvRecords(text, file, { required: ['source', 'name', 'alt_names'] }).map((record) => {
    const entry = cslEntry(record, file)
    if (!entry) throw new ListFormatError(file, { line: record.line }, 'a row without a name')
    if (!record.cells.source) throw new ListFormatError(file, { line: record.line }, 'a row without a source')
    return entry
  })
}
