import { normalizeCountry } from '../../datasets/normalize-country'
import type { CompaniesFilter } from '../company-store'
import { prefixQueryLiteral } from './company-lexemes'

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
  const name = prefixQueryLiteral(filter.name)
  if (name !== undefined) where.push(`name_words @@ $${values.push(name)}::tsquery`)
  const industry = prefixQueryLiteral(filter.industry)
  if (industry !== undefined) where.push(`industry_words @@ $${values.push(industry)}::tsquery`)
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
