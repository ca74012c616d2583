import { foldText } from './fold-text'
import { soundex } from './soundex'

/** A name ready to be scored: its whole folded form, its parts and their Soundex codes. */
export interface PreparedName {
  whole: string
  parts: string[]
  /** `soundex(parts[i])` for each part. */
  codes: string[]
  /**
   * A query's words of one or two letters left out of `parts` beside longer ones (not legal forms or linking
   * words): the score ignores them, the precision rules do not (`nameEvidence`).
   */
  short?: string[]
}

const prepared = (whole: string, parts: string[]): PreparedName => ({
  whole,
  parts,
  codes: parts.map(soundex),
})

const fold = (text: string) => foldText(text).toUpperCase()
const clean = (part: string) => part.replace(/[^\p{L}\p{N}]/gu, '')

/**
 * Legal forms and linking words: they say nothing about who a party is, and scoring on them would make
 * "ZEBRA TRADING COMPANY LIMITED" a 90 for "ZORRO TRADING COMPANY LIMITED". Screening tools drop them too.
 */
export const NOISE_WORDS = new Set([
  'AND',
  'OF',
  'THE',
  'FOR',
  'COMPANY',
  'CO',
  'LIMITED',
  'LTD',
  'LLC',
  'LLP',
  'INC',
  'CORP',
  'CORPORATION',
  'INCORPORATED',
  'PLC',
  'JOINT',
  'STOCK',
  'LIABILITY',
  'JSC',
  'PJSC',
  'OJSC',
  'CJSC',
  'OOO',
  'ZAO',
  'OAO',
  'TOO',
  'GMBH',
  'AG',
  'KG',
  'SA',
  'SAS',
  'SARL',
  'SRL',
  'SPA',
  'BV',
  'NV',
  'FZE',
  'FZCO',
  'FZC',
  'PTE',
  'PVT',
  'SDN',
  'BHD',
])

/**
 * The whole-name form of a name's words: without the legal forms and linking words it starts with (keeping the
 * last word). A shared leading "LIMITED LIABILITY COMPANY" is a long common prefix that lifted "LIMITED
 * LIABILITY COMPANY TELECOM INFRASTRUCTURE" to 85 or more against nearly six hundred listed companies; a legal
 * form after the name stays, as OFAC's scores show ("GORGE LIMITED" is 63 for "GEORGE BUSH", 72 without it).
 */
function wholeOf(words: string[]): string {
  let first = 0
  while (first < words.length - 1 && NOISE_WORDS.has(words[first] as string)) first += 1
  return words.slice(first).join(' ')
}

/**
 * A screened name (query side). Parts are split on spaces and commas; inside a part, hyphens, apostrophes and
 * dots are dropped ("BASHIR-UD-DIN" → "BASHIRUDDIN", "J.P." → "JP"); parts of one or two letters are ignored
 * when longer ones exist ("KIM JONG UN" is matched as KIM, JONG), as OFAC's scores show, and so are legal
 * forms and linking words (`NOISE_WORDS`). The whole-name comparison keeps every part but leading legal forms.
 */
export function prepareQueryName(name: string): PreparedName {
  // Each part once: a repeated word adds nothing to who a name is, and would only multiply the work.
  const all = [
    ...new Set(
      fold(name)
        .split(/[\s,]+/)
        .map(clean)
        .filter(Boolean),
    ),
  ]
  const telling = all.filter((part) => part.length > 2 && !NOISE_WORDS.has(part))
  const long = all.filter((part) => part.length > 2)
  const result = prepared(wholeOf(all), telling.length > 0 ? telling : long.length > 0 ? long : all)
  const short = all.filter((part) => part.length <= 2 && !NOISE_WORDS.has(part))
  return telling.length > 0 && short.length > 0 ? { ...result, short } : result
}

/**
 * A listed name (candidate side). Each part is kept joined and also split at hyphens and apostrophes, so both
 * "BASHIRUDDIN" and "BASHIR UD DIN" find "Bashir-Ud-Din".
 */
export function prepareListedName(name: string): PreparedName {
  const parts = new Set<string>()
  const raw = fold(name).split(/[\s,]+/)
  for (const token of raw) {
    const joined = clean(token)
    if (joined) parts.add(joined)
    for (const piece of token.split(/[-'’.]+/)) {
      const cleaned = clean(piece)
      if (cleaned) parts.add(cleaned)
    }
  }
  const words = raw
    .flatMap((token) =>
      token
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
        .split(' '),
    )
    .filter(Boolean)
  return prepared(wholeOf(words), [...parts])
}
