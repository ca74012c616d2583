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

/**
 * A query text as a `tsquery` literal that holds when every word starts a stored word (`'word':*` prefix
 * matches joined by `&`), or undefined when the text has no word (no filter, as in memory).
 */
export function prefixQueryLiteral(text: string | null | undefined): string | undefined {
  const words = [...new Set(tokenize(text))]
  if (words.length === 0) return undefined
  return words.map((word) => `'${word}':*`).join(' & ')
}
