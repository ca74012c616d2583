import { ListFormatError } from './list-format-error'
import { namesOf } from './listed-names'
import { normalizeCountry } from './normalize-country'
import { readCsvRecords } from './read-csv-records'
import type { SanctionEntry } from './records'

export const DPL_SOURCE = 'Denied Persons List (DPL) - Bureau of Industry and Security'

/**
 * The Bureau of Industry and Security's Denied Persons List as it publishes it (`dpl.txt`: tab-separated,
 * quoted, a header row `Name`, `Street_Address`, `City`, `State`, `Country`, `Postal_Code`, `Effective_Date`,
 * `Expiration_Date`, `Standard_Order`, `Last_Update`, `Action`, `FR_Citation`). It says neither whether a party
 * is a person or a company (type `unknown`) nor an id: `<file>:<line>`.
 */
export function parseBisDpl(text: string, file: string): SanctionEntry[] {
  const rows = readCsvRecords(text, file, { delimiter: '\t', required: ['Name', 'Country', 'FR_Citation'] })
  return rows.map(({ cells, line }) => {
    const names = namesOf([{ name: cells.Name, kind: 'primary' }])
    if (!names) throw new ListFormatError(file, { line }, 'a row without a name')
    const country = normalizeCountry(cells.Country)
    const period = [cells.Effective_Date, cells.Expiration_Date].filter(Boolean).join(' to ')
    return {
      id: `${file}:${line}`,
      ...names,
      type: 'unknown',
      programs: [],
      countries: country ? [country] : [],
      remarks: [period && `in effect ${period}`, cells.FR_Citation].filter(Boolean).join('; ') || null,
      source: DPL_SOURCE,
    }
  })
}
