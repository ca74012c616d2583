import { jaroWinkler } from './jaro-winkler'
import type { PreparedName } from './prepare-name'

/** The id of the scoring rule below, named in every hit so a score can be traced to the rule that gave it. */
export const NAME_SCORE_ALGORITHM = 'pf-ofac-jw/3'

/**
 * What a part's similarity keeps when the two parts do not sound alike (their Soundex codes differ). OFAC says
 * its part score combines Jaro-Winkler with Soundex without saying how; 0.95 is the value that best agrees with
 * OFAC's own scores (data/reference/name-matching: 158 of 164 pairs within 5 points, against 156 without it).
 */
export const SOUNDEX_MISMATCH_FACTOR = 0.95

/** How a query part compares with a listed part (0..1), given their indexes: the index passes a cached one. */
export type PartSimilarity = (queryPart: number, listedPart: number) => number

/**
 * How alike a query part and a listed part are (0..1): 1 when equal; 0 when their initials differ (OFAC
 * narrows by first letter); else their Jaro-Winkler, times `SOUNDEX_MISMATCH_FACTOR` unless they sound alike.
 * Never above their Jaro-Winkler, which is what the index's bounds rely on.
 */
export function partSimilarity(part: string, candidate: string, soundAlike: boolean): number {
  if (candidate.charCodeAt(0) !== part.charCodeAt(0)) return 0
  if (part === candidate) return 1
  return soundAdjusted(jaroWinkler(part, candidate), soundAlike)
}

/** A part pair's Jaro-Winkler as `partSimilarity` counts it, given whether the parts sound alike. */
export function soundAdjusted(jaroWinklerSimilarity: number, soundAlike: boolean): number {
  return soundAlike ? jaroWinklerSimilarity : jaroWinklerSimilarity * SOUNDEX_MISMATCH_FACTOR
}

/** Why a listed name scored what it did: the score, its two terms, and each query part's best listed part. */
export interface ScoreExplanation {
  algorithm: string
  score: number
  /** Mean over the query's parts of their best part similarity, 0-100. */
  partsScore: number
  /** Jaro-Winkler of the whole names, 0-100. */
  wholeScore: number
  parts: { query: string; listed: string | null; score: number }[]
}

/**
 * Score 0-100 of a listed name for a query, modelled on OFAC's Sanctions List Search: the larger of
 * - the mean, over the query's parts, of each part's best `partSimilarity` against the listed name's parts
 *   (extra parts of the listed name cost nothing: "PUTIN, Vladimir Vladimirovich" is 100 for "VLADIMIR PUTIN"),
 * - the Jaro-Winkler of the two whole names (`wholeSimilarity`).
 * Checked against 164 scored pairs from OFAC's own tool (data/reference/name-matching): see the README. The one
 * scorer of the provider: the index and the reference scan both call it (the index with cached part
 * similarities, `similarity`).
 */
export function scoreName(
  query: PreparedName,
  listed: PreparedName,
  similarity: PartSimilarity = (i, j) =>
    partSimilarity(query.parts[i] as string, listed.parts[j] as string, query.codes[i] === listed.codes[j]),
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
  return combinedScore(composite, composite < 1 ? wholeSimilarity(query.whole, listed.whole) : 0)
}

/** The score of a name from its two terms, each 0..1: the larger, in whole points. */
export function combinedScore(partsMean: number, whole: number): number {
  return Math.round(100 * Math.max(partsMean, whole))
}

/**
 * The whole-name term of `scoreName`: Jaro-Winkler of the whole names, whatever their initials (OFAC scores
 * "PUTIN VLADIMIR" against "TURIN, Vladimir" at 92).
 */
export function wholeSimilarity(query: string, listed: string): number {
  // Consonant skeletons have no whole-name form (`skeletonName`).
  if (query === '' || listed === '') return 0
  return jaroWinkler(query, listed)
}

/**
 * `scoreName` with its workings, for the hits a search returns, each similarity computed once. A caller that
 * already knows them passes them: `similarity` as for `scoreName`, `whole` the whole-name similarity.
 */
export function explainScore(
  query: PreparedName,
  listed: PreparedName,
  similarity: PartSimilarity = (i, j) =>
    partSimilarity(query.parts[i] as string, listed.parts[j] as string, query.codes[i] === listed.codes[j]),
  whole = wholeSimilarity(query.whole, listed.whole),
): ScoreExplanation {
  let sum = 0
  const parts = query.parts.map((part, i) => {
    let best = 0
    let bestListed: string | null = null
    for (const [j, candidate] of listed.parts.entries()) {
      const value = similarity(i, j)
      if (value > best) {
        best = value
        bestListed = candidate
      }
    }
    sum += best
    return { query: part, listed: bestListed, score: Math.round(1000 * best) / 10 }
  })
  const composite = sum / parts.length
  return {
    algorithm: NAME_SCORE_ALGORITHM,
    score:
      parts.length === 0 || listed.parts.length === 0
        ? 0
        : combinedScore(composite, composite < 1 ? whole : 0),
    partsScore:
      parts.length > 0
        ? Math.round((10 * parts.reduce((total, p) => total + p.score, 0)) / parts.length) / 10
        : 0,
    wholeScore: Math.round(1000 * whole) / 10,
    parts,
  }
}
