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

/** Words shorter than this are checked on the rows the others found rather than looked up in the index. */
export const MIN_INDEXED_PREFIX = 3

/**
 * A query text as `tsquery` literals that together hold when every word starts a stored word (`'word':*`
 * prefix matches joined by `&`): `indexed` for the GIN index, `checked` for the rows it finds. A prefix of one
 * or two letters ("s" of "S.A.") matches thousands of index keys, each a posting list to merge, for little
 * selectivity; so when a longer word is there, the short ones are only checked (both halves must hold: the
 * same answer). Undefined when the text has no word (no filter, as in memory).
 */
export function prefixQueryLiterals(
  text: string | null | undefined,
): { indexed: string; checked?: string } | undefined {
  const words = [...new Set(tokenize(text))]
  if (words.length === 0) return undefined
  const literal = (some: string[]) => some.map((word) => `'${word}':*`).join(' & ')
  const long = words.filter((word) => word.length >= MIN_INDEXED_PREFIX)
  if (long.length === 0 || long.length === words.length) return { indexed: literal(words) }
  return { indexed: literal(long), checked: literal(words.filter((word) => !long.includes(word))) }
}
