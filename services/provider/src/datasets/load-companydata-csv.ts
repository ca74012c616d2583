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
    .map((row, index) => companyFromCsvRow(row, source, firstId + index + 1))
}

/**
 * One company of a company-register CSV row (which must have a `Company Name`); `number` makes its id when the
 * row has no `ID`. Shared by the in-memory load and `import-companies`, so both stores hold the same records.
 */
export function companyFromCsvRow(row: Record<string, string>, source: string, number: number): Company {
  const country = normalizeCountry(row.Country)
  return {
    id: String(row.ID || `${source}:${number}`),
    name: row['Company Name'] ?? '',
    country,
    countryName: countryName(country) ?? (row.Country || null),
    industry: row['Business Category Code 1 - Description'] || null,
    city: row.City || null,
    source,
  }
}
