import type { Company } from '../../datasets/records'
import { tsvectorLiteral } from '../postgres/company-lexemes'

/** COPY's text format: backslash, and the characters it uses as separators, escaped (PostgreSQL docs, COPY). */
function field(value: string | null): string {
  if (value === null) return '\\N'
  if (value.includes('\u0000')) throw new RangeError('a field holds a NUL character, which text cannot')
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  )
}

/**
 * One company as a line of `COPY companies_import_<n> FROM STDIN` (text format), in the table's column order:
 * import, ordinal, the record's fields, and the folded words of its name and industry (`tsvectorLiteral`).
 * Throws a `RangeError` naming the field PostgreSQL cannot store (a NUL, words past its text-search limits).
 */
export function copyRow(importId: string, ordinal: bigint, company: Company): string {
  return `${[
    importId,
    ordinal.toString(),
    field(company.id),
    field(company.name),
    field(company.country),
    field(company.countryName),
    field(company.industry),
    field(company.city),
    field(company.source),
    field(lexemes('name', company.name)),
    field(lexemes('industry', company.industry)),
  ].join('\t')}\n`
}

function lexemes(what: string, text: string | null): string {
  try {
    return tsvectorLiteral(text)
  } catch (error) {
    throw new RangeError(`the ${what} has ${(error as Error).message}`)
  }
}
