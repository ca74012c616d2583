import { normalizeCountry } from '../../datasets/normalize-country'
import type { CompaniesFilter } from '../company-store'
import { prefixQueryLiterals } from './company-lexemes'

/** The columns a search returns, named as `Company`'s fields. */
const COLUMNS = 'id, name, country, country_name AS "countryName", industry, city, source'

/**
 * The SQL of a companies search, with the in-memory store's semantics: each word of `name`/`industry` a prefix
 * of a stored word (`@@ 'word':*`), `country` as the ISO code `normalizeCountry` gives (a spelling it does not
 * know matches nothing), dataset order. The current imports are read in the same statement as the rows (one
 * snapshot: a swap committing meanwhile is seen whole or not at all). `ARRAY(SELECT ...)` is an InitPlan,
 * whose value PostgreSQL prunes partitions with at executor start-up (docs, "Partition Pruning").
 * Undefined when the query can match nothing.
 */
export function companySearchSql(
  filter: CompaniesFilter,
  limit?: number,
): { text: string; values: unknown[] } | undefined {
  const values: unknown[] = []
  const where = ['import_id = ANY (ARRAY(SELECT import_id FROM company_sources))']
  for (const [column, text] of [
    ['name_words', filter.name],
    ['industry_words', filter.industry],
  ] as const) {
    const query = prefixQueryLiterals(text)
    if (!query) continue
    where.push(`${column} @@ $${values.push(query.indexed)}::tsquery`)
    // The function form of @@: the same test, but no index matches it, so it runs on the rows found.
    if (query.checked) where.push(`ts_match_vq(${column}, $${values.push(query.checked)}::tsquery)`)
  }
  if (filter.country?.trim()) {
    const code = normalizeCountry(filter.country)
    if (!code) return undefined
    where.push(`country = $${values.push(code)}`)
  }
  const limited = limit === undefined ? '' : ` LIMIT $${values.push(limit)}`
  return {
    text: `SELECT ${COLUMNS} FROM companies WHERE ${where.join(' AND ')} ORDER BY ordinal${limited}`,
    values,
  }
}
