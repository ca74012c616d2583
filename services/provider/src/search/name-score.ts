import { foldText } from './fold-text'
import { jaroWinkler } from './jaro-winkler'

/** The id of the scoring rule below, named in every hit so a score can be traced to the rule that gave it. */
export const NAME_SCORE_ALGORITHM = 'pf-ofac-jw/2'

/** A name ready to be scored: its whole folded form and its parts. */
export interface PreparedName {
  whole: string
  parts: string[]
}

const fold = (text: string) => foldText(text).toUpperCase()
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

/** How a query part compares with a listed part (0..1), given their indexes: the index passes a cached one. */
export type PartSimilarity = (queryPart: number, listedPart: number) => number

/** Jaro-Winkler of two parts, 0 when their initials differ (OFAC narrows by first letter). */
export function partSimilarity(part: string, candidate: string): number {
  if (candidate.charCodeAt(0) !== part.charCodeAt(0)) return 0
  return part === candidate ? 1 : jaroWinkler(part, candidate)
}

/** Why a listed name scored what it did: the score, its two terms, and each query part's best listed part. */
export interface ScoreExplanation {
  algorithm: string
  score: number
  /** Mean over the query's parts of their best part similarity, 0-100. */
  partsScore: number
  /** Jaro-Winkler of the whole names (0 when their initials differ), 0-100. */
  wholeScore: number
  parts: { query: string; listed: string | null; score: number }[]
}

/**
 * Score 0-100 of a listed name for a query, modelled on OFAC's Sanctions List Search: the larger of
 * - the mean, over the query's parts, of each part's best Jaro-Winkler against the listed name's parts with
 *   the same initial (extra parts of the listed name cost nothing: "PUTIN, Vladimir Vladimirovich" is 100 for
 *   "VLADIMIR PUTIN"),
 * - the Jaro-Winkler of the two whole names, when they share their initial.
 * Checked against 164 scored pairs from OFAC's own tool (shared/data/name-matching): see the README. The one
 * scorer of the provider: the index and the reference scan both call it (the index with cached part
 * similarities, `similarity`).
 */
export function scoreName(
  query: PreparedName,
  listed: PreparedName,
  similarity: PartSimilarity = (i, j) => partSimilarity(query.parts[i] as string, listed.parts[j] as string),
): number {
  if (query.parts.length === 0 || listed.parts.length === 0) return 0
  let sum = 0
  for (let i = 0; i < query.parts.length; i += 1) {
    let best = 0
    for (let j = 0; j < listed.parts.length && best < 1; j += 1) {
      const value = similarity(i, j)
      if (value > best) best = value
    }
    sum += best
  }
  const composite = sum / query.parts.length
  // The whole-name term can only win below a perfect part score.
  const whole = composite < 1 ? wholeSimilarity(query.whole, listed.whole) : 0
  return Math.round(100 * Math.max(composite, whole))
}

/** The whole-name term of `scoreName`: Jaro-Winkler of the whole names when they share their initial. */
export function wholeSimilarity(query: string, listed: string): number {
  return query.charCodeAt(0) === listed.charCodeAt(0) ? jaroWinkler(query, listed) : 0
}

/** `scoreName` with its workings, for the hits a search returns. */
export function explainScore(query: PreparedName, listed: PreparedName): ScoreExplanation {
  const parts = query.parts.map((part) => {
    let best = 0
    let bestListed: string | null = null
    for (const candidate of listed.parts) {
      const value = partSimilarity(part, candidate)
      if (value > best) {
        best = value
        bestListed = candidate
      }
    }
    return { query: part, listed: bestListed, score: Math.round(1000 * best) / 10 }
  })
  return {
    algorithm: NAME_SCORE_ALGORITHM,
    score: scoreName(query, listed),
    partsScore:
      parts.length > 0
        ? Math.round((10 * parts.reduce((sum, p) => sum + p.score, 0)) / parts.length) / 10
        : 0,
    wholeScore: Math.round(1000 * wholeSimilarity(query.whole, listed.whole)) / 10,
    parts,
  }
}
