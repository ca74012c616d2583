import { MIN_INDEXED_PREFIX } from './company-lexemes'
import type { WordColumn, WordStatistics } from './company-word-statistics'

/** A search's words, folded, per column they are matched in. */
export type SearchWords = Record<WordColumn, string[]>

/**
 * How a search finds its rows; every word is tested whatever the plan (the answer never depends on it).
 * - `indexed`: the words looked up in the GIN indexes; the others are tested on the rows those find.
 * - `scan`: `bitmap` finds the rows with the indexed words and sorts them (the planner may not walk the
 *   ordinal index instead); `ordinal` walks the rows in dataset order and tests each (no word is indexed);
 *   `planner` lets PostgreSQL choose.
 */
export interface SearchPlan {
  indexed: SearchWords
  scan: 'bitmap' | 'ordinal' | 'planner'
}

// Costs, in microseconds, measured on the bench's 10 M companies (README, "Companies in PostgreSQL"): a row the
// GIN index finds costs a random heap page (in the OS cache, rarely in shared_buffers); each row id a prefix's
// posting lists add to the index's bitmap costs a little; a row an ordinal scan tests is on the page it read
// just before (the table is in dataset order).
const HEAP_ROW_COST = 10
const POSTING_COST = 0.4
const SCAN_ROW_COST = 0.3

/**
 * The words to look up in the index, without statistics: all but the one- and two-letter ones ("s" of
 * "S.A." matches thousands of index keys, each a posting list to merge, for little selectivity), which are
 * only tested on the rows the others find; all of them when none is longer.
 */
export function defaultPlan(words: SearchWords): SearchPlan {
  const indexed = (some: string[]) => {
    const long = some.filter((word) => word.length >= MIN_INDEXED_PREFIX)
    return long.length > 0 ? long : some
  }
  return {
    indexed: { name_words: indexed(words.name_words), industry_words: indexed(words.industry_words) },
    scan: 'planner',
  }
}

/**
 * The cheapest plan for the first `limit` matches, by the statistics' estimates: either the k rarest words
 * looked up in the index (each adds its posting lists, and spares the heap the rows it rules out), the rows
 * read and sorted; or the rows walked in dataset order until `limit` pass (as many as `limit` / the share
 * that passes). PostgreSQL's own choice between the two goes wrong at 10 M companies: it prices a heap page
 * the GIN index points to as a random read from disk but not the posting lists a common prefix merges, and
 * takes the words as independent of the country ("N.V." is Dutch).
 */
export function costedPlan(
  words: SearchWords,
  country: string | undefined,
  limit: number,
  statistics: WordStatistics,
): SearchPlan {
  const records = statistics.records
  const all = (['name_words', 'industry_words'] as const).flatMap((column) =>
    words[column].map((word) => ({ column, word, share: statistics.prefixShare(column, word) })),
  )
  const long = all.filter(({ word }) => word.length >= MIN_INDEXED_PREFIX)
  const candidates = (long.length > 0 ? long : all).sort((a, b) => a.share - b.share)
  // The country is looked up with the name's words (one GIN index): the heap reads only its rows.
  const countryShare = country ? statistics.countryShare(country) : 1
  let best = { cost: Infinity, count: 0 }
  let share = 1
  let postings = 0
  let named = false
  for (const [index, candidate] of candidates.entries()) {
    share *= candidate.share
    postings += candidate.share * records * POSTING_COST
    named ||= candidate.column === 'name_words'
    const cost = postings + share * (named ? countryShare : 1) * records * HEAP_ROW_COST
    if (cost < best.cost) best = { cost, count: index + 1 }
  }
  const passing = all.reduce((product, { share: one }) => product * one, countryShare)
  const scanned = Math.min(records, limit / Math.max(passing, Number.MIN_VALUE))
  const indexed: SearchWords = { name_words: [], industry_words: [] }
  if (scanned * SCAN_ROW_COST < best.cost) return { indexed, scan: 'ordinal' }
  for (const { column, word } of candidates.slice(0, best.count)) indexed[column].push(word)
  return { indexed, scan: 'bitmap' }
}
