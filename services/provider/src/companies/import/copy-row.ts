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
 * import, ordinal, the record's fields, and the folded words of its name and industry (`tsvectorLiteral`,
 * which throws on a word PostgreSQL cannot store).
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
    field(tsvectorLiteral(company.name)),
    field(tsvectorLiteral(company.industry)),
  ].join('\t')}\n`
}
