import { tokenize } from '../../matching/fold-text'

/**
 * PostgreSQL's longest lexeme, in bytes (`MAXSTRLEN` in src/include/tsearch/ts_type.h: 2^11 - 1); a longer
 * one is an error in a tsvector ("word is too long") and in a tsquery ("word is too long in tsquery", which
 * quotes the word whole).
 */
export const MAX_LEXEME_BYTES = 2047

/**
 * The most bytes a tsvector's lexemes may take together (`MAXSTRPOS`, 2^20 - 1): past it, "string is too long
 * for tsvector". `tsvectorin` adds up every word it is given, repeated ones too, so `tsvectorLiteral` gives
 * each once.
 */
export const MAX_TSVECTOR_BYTES = 1_048_575

/**
 * A text's words as a `tsvector` literal, from the in-memory store's own folding (`tokenize`): the words are
 * stored as they are, never parsed again by a text-search configuration (`to_tsvector` would split and
 * normalise differently). `tokenize` keeps letters and digits only, so each word is quoted without escapes;
 * tsvector input sorts them. Throws a `RangeError` saying which limit a word or the words together pass
 * (folding can make a text longer: "㌖" is "キロメートル", six times its bytes).
 */
export function tsvectorLiteral(text: string | null | undefined): string {
  const words = [...new Set(tokenize(text))]
  let total = 0
  for (const word of words) {
    const bytes = Buffer.byteLength(word)
    if (bytes > MAX_LEXEME_BYTES)
      throw new RangeError(
        `a folded word of ${bytes} bytes, longer than PostgreSQL's ${MAX_LEXEME_BYTES}-byte lexeme`,
      )
    total += bytes
  }
  if (total > MAX_TSVECTOR_BYTES)
    throw new RangeError(
      `folded words of ${total} bytes in all, more than a PostgreSQL tsvector's ${MAX_TSVECTOR_BYTES}`,
    )
  return words.map((word) => `'${word}'`).join(' ')
}

/** Words shorter than this are only looked up in the index when the query has no longer one (`defaultPlan`). */
export const MIN_INDEXED_PREFIX = 3

/** A query text's distinct words, folded as the stored ones (`tokenize`). */
export function queryWords(text: string | null | undefined): string[] {
  return [...new Set(tokenize(text))]
}

/**
 * True when a query word can start no stored word: one longer than `MAX_LEXEME_BYTES` (a stored word never
 * is; the import refuses the row), which PostgreSQL would refuse in a tsquery rather than match nothing.
 */
export const matchesNoLexeme = (word: string): boolean => Buffer.byteLength(word) > MAX_LEXEME_BYTES

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
