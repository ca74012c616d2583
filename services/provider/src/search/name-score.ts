import { jaroWinkler } from './jaro-winkler'

/** A name ready to be scored: its whole folded form and its parts. */
export interface PreparedName {
  whole: string
  parts: string[]
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase()
const clean = (part: string) => part.replace(/[^\p{L}\p{N}]/gu, '')

/**
 * Legal forms and linking words: they say nothing about who a party is, and scoring on them would make
 * "ZEBRA TRADING COMPANY LIMITED" a 90 for "ZORRO TRADING COMPANY LIMITED". Screening tools drop them too.
 */
const NOISE_WORDS = new Set([
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
 * A screened name (query side). Parts are split on spaces and commas; inside a part, hyphens, apostrophes and
 * dots are dropped ("BASHIR-UD-DIN" → "BASHIRUDDIN", "J.P." → "JP"); parts of one or two letters are ignored
 * when longer ones exist ("KIM JONG UN" is matched as KIM, JONG), as OFAC's scores show, and so are legal
 * forms and linking words (`NOISE_WORDS`). The whole-name comparison keeps every part.
 */
export function prepareQueryName(name: string): PreparedName {
  const all = fold(name)
    .split(/[\s,]+/)
    .map(clean)
    .filter(Boolean)
  const telling = all.filter((part) => part.length > 2 && !NOISE_WORDS.has(part))
  const long = all.filter((part) => part.length > 2)
  return { whole: all.join(' '), parts: telling.length > 0 ? telling : long.length > 0 ? long : all }
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
  const whole = raw
    .map((token) => token.replace(/[^\p{L}\p{N}]+/gu, ' ').trim())
    .filter(Boolean)
    .join(' ')
  return { whole, parts: [...parts] }
}

/**
 * Score 0-100 of a listed name for a query, modelled on OFAC's Sanctions List Search: the larger of
 * - the mean, over the query's parts, of each part's best Jaro-Winkler against the listed name's parts with
 *   the same initial (extra parts of the listed name cost nothing: "PUTIN, Vladimir Vladimirovich" is 100 for
 *   "VLADIMIR PUTIN"),
 * - the Jaro-Winkler of the two whole names, when they share their initial.
 * Checked against 164 scored pairs from OFAC's own tool (shared/data/name-matching): see the README.
 */
export function scoreName(query: PreparedName, listed: PreparedName): number {
  if (query.parts.length === 0 || listed.parts.length === 0) return 0
  let sum = 0
  for (const part of query.parts) {
    let best = 0
    for (const candidate of listed.parts) {
      // Parts with different initials never match (OFAC narrows by first letter; whole-name similarity still
      // catches "JONG" ~ "SONG" inside "KIM JONG UN" ~ "KIM, Song Hun").
      if (candidate.charCodeAt(0) !== part.charCodeAt(0)) continue
      const similarity = part === candidate ? 1 : jaroWinkler(part, candidate)
      if (similarity > best) best = similarity
      if (best === 1) break
    }
    sum += best
  }
  const composite = sum / query.parts.length
  const whole =
    query.whole.charCodeAt(0) === listed.whole.charCodeAt(0) ? jaroWinkler(query.whole, listed.whole) : 0
  return Math.round(100 * Math.max(composite, whole))
}
