import { tokenize } from '../../matching/fold-text'

/**
 * PostgreSQL's longest lexeme, in bytes (`MAXSTRLEN` in src/include/tsearch/ts_type.h: 2^11 - 1); a longer
 * one is an error in a tsvector, so an import refuses the row.
 */
export const MAX_LEXEME_BYTES = 2047

/**
 * A text's words as a `tsvector` literal, from the in-memory store's own folding (`tokenize`): the words are
 * stored as they are, never parsed again by a text-search configuration (`to_tsvector` would split and
 * normalise differently). `tokenize` keeps letters and digits only, so each word is quoted without escapes;
 * tsvector input sorts and de-duplicates them. Throws when a word is longer than `MAX_LEXEME_BYTES`.
 */
export function tsvectorLiteral(text: string | null | undefined): string {
  const words = tokenize(text)
  for (const word of words)
    if (Buffer.byteLength(word) > MAX_LEXEME_BYTES)
      throw new RangeError(`a word is longer than ${MAX_LEXEME_BYTES} bytes`)
  return words.map((word) => `'${word}'`).join(' ')
}

/** Words shorter than this are only looked up in the index when the query has no longer one (`defaultPlan`). */
export const MIN_INDEXED_PREFIX = 3

/** A query text's distinct words, folded as the stored ones (`tokenize`). */
export function queryWords(text: string | null | undefined): string[] {
  return [...new Set(tokenize(text))]
}

/** The `tsquery` literal that holds when every one of `words` starts a stored word. */
export function prefixLiteral(words: readonly string[]): string {
  return words.map((word) => `'${word}':*`).join(' & ')
}

/**
 * The country as a tsvector of its ISO code (none without a country): the second column of the name's GIN
 * index (migration 2), matched by `countryQueryLiteral`. Written exactly as in the index, so the planner
 * recognises it.
 */
export const COUNTRY_WORDS = 'array_to_tsvector(array_remove(ARRAY[country], NULL))'

/** The `tsquery` literal of an ISO code (`normalizeCountry`'s letters: nothing to escape), for `COUNTRY_WORDS`. */
export function countryQueryLiteral(code: string): string | undefined {
  return /^[A-Z]+$/.test(code) ? `'${code}'` : undefined
}
