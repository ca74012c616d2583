import { normalizeCountry } from '../../datasets/normalize-country'
import type { CompaniesFilter } from '../company-store'
import {
  COUNTRY_WORDS,
  countryQueryLiteral,
  matchesNoLexeme,
  prefixLiteral,
  queryWords,
} from './company-lexemes'
import { costedPlan, defaultPlan, type SearchPlan, type SearchWords } from './company-search-plan'
import type { WordStatistics } from './company-word-statistics'

/** The columns a search returns, named as `Company`'s fields. */
const COLUMNS = 'id, name, country, country_name AS "countryName", industry, city, source'
const ROW = 'id, name, country, country_name, industry, city, source, ordinal'

/**
 * The SQL of a companies search, with the in-memory store's semantics: each word of `name`/`industry` a prefix
 * of a stored word (`@@ 'word':*`), `country` as the ISO code `normalizeCountry` gives (a spelling it does not
 * know matches nothing), dataset order. The current imports are read in the same statement as the rows (one
 * snapshot: a swap committing meanwhile is seen whole or not at all). `ARRAY(SELECT ...)` is an InitPlan,
 * whose value PostgreSQL prunes partitions with at executor start-up (docs, "Partition Pruning").
 * With `statistics` and a `limit`, the plan is chosen here (`costedPlan`); else PostgreSQL chooses.
 * Undefined when the query can match nothing (a country it does not know, a word no lexeme can start).
 */
export function companySearchSql(
  filter: CompaniesFilter,
  limit?: number,
  statistics?: WordStatistics,
): { text: string; values: unknown[] } | undefined {
  const code = filter.country?.trim() ? (normalizeCountry(filter.country) ?? undefined) : undefined
  if (filter.country?.trim() && !code) return undefined
  const words: SearchWords = {
    name_words: queryWords(filter.name),
    industry_words: queryWords(filter.industry),
  }
  // As in memory, such a word starts no stored word; PostgreSQL would refuse its tsquery (a 500) instead.
  if ([...words.name_words, ...words.industry_words].some(matchesNoLexeme)) return undefined
  const worded = words.name_words.length + words.industry_words.length > 0
  const plan =
    statistics && limit !== undefined && worded
      ? costedPlan(words, code, limit, statistics)
      : defaultPlan(words)
  return planSql(words, code, limit, plan)
}

function planSql(words: SearchWords, code: string | undefined, limit: number | undefined, plan: SearchPlan) {
  const values: unknown[] = []
  const where = ['import_id = ANY (ARRAY(SELECT import_id FROM company_sources))']
  for (const column of ['name_words', 'industry_words'] as const) {
    const indexed = plan.indexed[column]
    const checked = words[column].filter((word) => !indexed.includes(word))
    if (indexed.length > 0) where.push(`${column} @@ $${values.push(prefixLiteral(indexed))}::tsquery`)
    // The function form of @@: the same test, but no index matches it, so it runs on the rows found.
    if (checked.length > 0)
      where.push(`ts_match_vq(${column}, $${values.push(prefixLiteral(checked))}::tsquery)`)
  }
  const country = () => `country = $${values.push(code)}`
  if (plan.scan !== 'bitmap') {
    if (code) where.push(country())
    const limited = limit === undefined ? '' : ` LIMIT $${values.push(limit)}`
    return {
      text: `SELECT ${COLUMNS} FROM companies WHERE ${where.join(' AND ')} ORDER BY ordinal${limited}`,
      values,
    }
  }
  // A MATERIALIZED CTE is planned for all its rows, apart from the LIMIT outside: PostgreSQL cannot answer it
  // by walking the ordinal index until `limit` rows pass, and finds the rows with the GIN index. The country
  // is looked up in the same GIN index as the name's words (migration 2) when some are; else it is tested on
  // the rows found, outside (inside, PostgreSQL would AND the GIN bitmap with the country btree's: a tenth of
  // the table read to spare a tenth of the heap pages).
  const countryWords = code && plan.indexed.name_words.length > 0 ? countryQueryLiteral(code) : undefined
  if (countryWords) where.push(`${COUNTRY_WORDS} @@ $${values.push(countryWords)}::tsquery`)
  const outside = code && !countryWords ? ` WHERE ${country()}` : ''
  const limited = limit === undefined ? '' : ` LIMIT $${values.push(limit)}`
  return {
    text:
      `WITH found AS MATERIALIZED (SELECT ${ROW} FROM companies WHERE ${where.join(' AND ')}) ` +
      `SELECT ${COLUMNS} FROM found${outside} ORDER BY ordinal${limited}`,
    values,
  }
}
