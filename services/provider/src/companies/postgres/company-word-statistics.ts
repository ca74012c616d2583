import type { Pool } from 'pg'

/** The most common elements of a tsvector column of one import, as ANALYZE sampled them. */
export interface ColumnElements {
  words: string[]
  freqs: number[]
  /** The share of the least common element listed: an element not listed is rarer. */
  minFreq: number
}

/** What ANALYZE knows of one import (a partition of `companies`) the sources point to. */
export interface ImportStatistics {
  records: number
  name_words?: ColumnElements
  industry_words?: ColumnElements
  countries: Map<string, number>
}

export type WordColumn = 'name_words' | 'industry_words'

/**
 * The share of the current companies a filter keeps, from the statistics ANALYZE keeps for each import (its
 * `pg_stats` row: the most common lexemes with their frequencies, the most common countries). Only estimates:
 * the search plan rests on them, never its answer.
 */
export class WordStatistics {
  constructor(private readonly imports: readonly ImportStatistics[]) {}

  /** The companies of every current import. */
  get records(): number {
    return this.imports.reduce((sum, one) => sum + one.records, 0)
  }

  /**
   * The share of companies with a word starting with `prefix`: the listed lexemes it starts, summed (a company
   * has few words, so they seldom overlap), at least half the least listed frequency, as PostgreSQL's own
   * estimate for a lexeme it does not list (`tsquery_opr_selec`).
   */
  prefixShare(column: WordColumn, prefix: string): number {
    return this.weighted((one) => {
      const elements = one[column]
      if (!elements) return 1
      let share = 0
      for (const [index, word] of elements.words.entries())
        if (word.startsWith(prefix)) share += elements.freqs[index] ?? 0
      return Math.min(1, Math.max(share, elements.minFreq / 2))
    })
  }

  /** The share of companies of the ISO code `country` (a tenth when ANALYZE did not list it). */
  countryShare(country: string): number {
    return this.weighted((one) => one.countries.get(country) ?? 0.1)
  }

  private weighted(share: (one: ImportStatistics) => number): number {
    const records = this.records
    if (records === 0) return 1
    return this.imports.reduce((sum, one) => sum + share(one) * one.records, 0) / records
  }
}

interface StatisticsRow {
  import_id: string
  records: string
  column: string
  elements: string[] | null
  element_freqs: number[] | null
  values: string[] | null
  freqs: number[] | null
}

// Each import is a partition named after it (`import-companies`); `pg_stats` shows the rows of the columns
// the user may read. The element arrays are `anyarray`: cast through text to reach node-postgres as text[].
const STATISTICS_SQL = `
  SELECT s.import_id::text, s.records::text, st.attname::text AS column,
         st.most_common_elems::text::text[] AS elements, st.most_common_elem_freqs AS element_freqs,
         st.most_common_vals::text::text[] AS values, st.most_common_freqs AS freqs
    FROM company_sources s
    JOIN pg_stats st ON st.schemaname = current_schema() AND st.tablename = 'companies_import_' || s.import_id
   WHERE st.attname IN ('name_words', 'industry_words', 'country')`

/** Reads the statistics of the current imports; undefined when there are none (no import analysed yet). */
export async function readWordStatistics(pool: Pool): Promise<WordStatistics | undefined> {
  const { rows } = await pool.query<StatisticsRow>(STATISTICS_SQL)
  const imports = new Map<string, ImportStatistics>()
  for (const row of rows) {
    let one = imports.get(row.import_id)
    if (!one) imports.set(row.import_id, (one = { records: Number(row.records), countries: new Map() }))
    if (row.column === 'country') {
      for (const [index, value] of (row.values ?? []).entries())
        one.countries.set(value, row.freqs?.[index] ?? 0)
    } else if (row.elements && row.element_freqs) {
      // The frequencies list one per element, then the least and the greatest (pg_statistic, STATISTIC_KIND_MCELEM).
      const words = row.elements
      one[row.column as WordColumn] = {
        words,
        freqs: row.element_freqs.slice(0, words.length),
        minFreq: row.element_freqs[words.length] ?? 0,
      }
    }
  }
  return imports.size === 0 ? undefined : new WordStatistics([...imports.values()])
}

/**
 * The statistics, read again at most every `maxAgeMs` (a search reads them from memory): an import swapped in
 * meanwhile is searched with the previous import's figures for that long, which may make a slower plan, never
 * a different answer. A failed read leaves none until the next try.
 */
export class WordStatisticsCache {
  private read?: { at: number; statistics: Promise<WordStatistics | undefined> }

  constructor(
    private readonly pool: Pool,
    private readonly maxAgeMs = 30_000,
  ) {}

  async get(): Promise<WordStatistics | undefined> {
    if (!this.read || Date.now() - this.read.at > this.maxAgeMs)
      this.read = { at: Date.now(), statistics: readWordStatistics(this.pool).catch(() => undefined) }
    return this.read.statistics
  }
}
