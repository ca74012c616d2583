import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parse } from 'csv-parse/sync'
import { countryName, normalizeCountry } from './normalize-country'
import type { Company } from './records'

/** True for the `;`-separated company-register export (a header with "Company Name" and "Country"). */
export function isCompanydataCsv(firstLine: string): boolean {
  return firstLine.includes(';') && firstLine.includes('Company Name') && firstLine.includes('Country')
}

/**
 * Loads a company-register CSV (`;`-separated, UTF-8 with BOM): `Company Name`, `Country`, `City` and
 * `Business Category Code 1 - Description` (the industry); other columns are ignored.
 */
export function loadCompanydataCsv(path: string, firstId = 0): Company[] {
  const rows = parse(readFileSync(path), {
    delimiter: ';',
    bom: true,
    columns: true,
    relax_column_count: true,
  }) as Record<string, string>[]
  const source = basename(path)
  return rows
    .filter((row) => row['Company Name'])
    .map((row, index) => {
      const country = normalizeCountry(row.Country)
      return {
        id: String(row.ID || `${source}:${firstId + index + 1}`),
        name: row['Company Name'] ?? '',
        country,
        countryName: countryName(country) ?? (row.Country || null),
        industry: row['Business Category Code 1 - Description'] || null,
        city: row.City || null,
        source,
      }
    })
}
