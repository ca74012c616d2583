import { consonantSkeleton } from './consonant-skeleton'
import { jaro } from './jaro-winkler'
import { partSimilarity, type PartSimilarity } from './name-score'
import { NOISE_WORDS, type PreparedName } from './prepare-name'
import { soundClass } from './soundex'

/**
 * Points a hit loses when a word of the query has no counterpart in the listed name. The OFAC-modelled score
 * lets such a name reach the default threshold through the whole-name Jaro-Winkler, which rewards a shared
 * first word ("TIMOTHY JAMES" ~ "TIMOTHY GORMLEY" 89, as OFAC scores "VLADIMIR PUTIN" ~ "VLADIMIR BILIY" 90),
 * and through the mean of parts of a long query. On customers' names drawn by their frequency that was most of
 * the false alerts (the README's precision table). 16 points take such a hit below the default threshold from
 * any name score: only a consonant skeleton too thin to count (below) has both 100 and an unanswered word.
 */
export const UNMATCHED_WORD_POINTS = 16

/**
 * Points a hit loses when the query, of two words or more, answers at most half of the listed name's words
 * (three or more): "MARIA MARTINEZ" is 100 for "CHAVEZ MARTINEZ, Maria Icela", as OFAC's extra words cost
 * nothing, and lands at 84 with them. 16, as for an unmatched word, so that even an exact half never reaches the
 * default threshold (at 15, "DANIEL FLORES" stayed an 85 for "GAVIDIA FLORES, Yosser Daniel").
 */
export const PARTIAL_NAME_POINTS = 16

/**
 * Points a hit loses when a word of one or two letters of the query, which the score leaves out, is not in the
 * listed name (a one-letter word: no listed word of that initial; a listed word of three letters at most holds it
 * with other vowels or a letter more: DE for DA, AGD for AD). "GARY LE" scored 100 for "BODEAU, Gary" and
 * "BO ANDERSSON" 98 for "SUAREZ ANDERSON, Lourdes Benicia": the short word is a family or given name the listed
 * party does not have. 16, as for an unmatched word.
 */
export const SHORT_WORD_POINTS = 16

/**
 * Points a hit loses when the query, of two words or more, has no word spelt as a word of the listed name (the
 * same letters, or the same consonants, three or more: vowels are what transliterations change most). Two
 * ordinary names each near another ("MARK HARVEY" ~ "MARS HARVEST CO., LTD." 87, "SANDOR MARTIN" ~ "LUCERO DE
 * MARTINEZ, Sandra" 94) are another person more often than two misspellings at once: such a hit needs a name
 * score of 95 or more to stay at the default threshold.
 */
export const NO_SAME_WORD_POINTS = 10

/**
 * Points a hit loses when the query answers part of a listed name of three words or more, not all of it, and a
 * query word is answered only by a word spelt otherwise: "MICHAEL WILLIAMS" ~ "WILLIAM MICHAEL JOHNSON" 96,
 * "DANIELLE HERRERA" ~ "RENDON HERRERA, Daniel" 98, "EDUARDO GARCIA" ~ "GARCIA ARBOLEDA, Edward" 94. A common
 * given name and family name meet a listed name's words in thousands of customers; a name missing a word is still
 * found when the words given are the listed ones, and a name misspelt when it is whole. 16, as for a partial name.
 */
export const NEAR_PARTIAL_NAME_POINTS = 16

/** The part similarity from which a query word counts as answered by a listed word. */
export const WORD_MATCH = 0.85

/** The same between consonant skeletons, which are short: NDRD (UNDERWOOD) ~ NR is 0.81, MR (MARY) ~ MRF 0.87. */
export const SKELETON_WORD_MATCH = 0.9

/**
 * The fewest consonants the answered words of a skeleton comparison hold between them: DN and L (DONNA LEE) are
 * in a third of the UN list's Arabic names (DIN, ALI) and say nothing of who is meant.
 */
export const SKELETON_MIN_CONSONANTS = 4

/**
 * The Jaro similarity (no prefix reward: the initials differ) from which a word is the same spelt with another
 * initial: USAMA and OSAMA, ALACTRONIC and ELECTRONIC, which `partSimilarity` scores 0. The two initials must
 * sound alike (one Soundex class: vowels, H, W and Y one; C, K, Q, S one): LAWSON is not WILSON (0.82).
 */
export const OTHER_INITIAL_MATCH = 0.8

/**
 * The most two words' lengths differ by for one to answer the other: Jaro-Winkler rewards a shared beginning
 * (JOHN ~ JOHNSON 0.91, ANDERSSON ~ ANDRE 0.88), while transliterations and typos change a length by a letter or
 * two (MOHAMMED, MUHAMAD; NIKOLAEVICH, NIKOLAYEVICH).
 */
export const MAX_LENGTH_DIFFERENCE = 2

/** The shortest consonant skeleton that answers a word by itself (ANRIQUA and ENRIQUE: NRQ). */
const SAME_SKELETON_LENGTH = 3

/** How alike a word and a compound are once their spaces are gone (AL QAEDA and ALQAEDA). */
const COMPOUND_MATCH = 0.9

/** The longest listed word that holds a short query word spelt otherwise (`nameEvidence`). */
const SHORT_LISTED_WORD = 3

/**
 * Whether two words' initials are of one Soundex class (`soundClass`), or one word's initial is the other's second
 * letter: a first letter dropped or a KH written H (HAN and KHAN, ERGEY and SERGEY, HUWAIT and KHUWAYT).
 */
const initialsSoundAlike = (a: string, b: string) =>
  soundClass(a[0] as string) === soundClass(b[0] as string) || a[0] === b[1] || b[0] === a[1]

/** Whether `short`'s letters appear in `word` in order. */
function isSubsequence(short: string, word: string): boolean {
  let at = 0
  for (const letter of word) if (letter === short[at]) at += 1
  return at === short.length
}

const lengthsClose = (a: string, b: string) => Math.abs(a.length - b.length) <= MAX_LENGTH_DIFFERENCE

/** Each adjacent pair of words, written as one. */
const joinedPairs = (parts: readonly string[]) => parts.slice(1).map((part, j) => `${parts[j]}${part}`)

/** How much of the two names answers the other: what the precision rules (`evidencePoints`) read. */
export interface NameEvidence {
  /** The query's words (as compared: parts, Korean keys or consonant skeletons) no listed word answers. */
  unmatched: string[]
  /**
   * The listed name's words (three letters or more, not a legal form or linking word, not a piece of a
   * hyphenated word) and how many are answered.
   */
  listedWords: number
  answeredListed: number
  /** The query's words of one or two letters (`PreparedName.short`) the listed name does not hold. */
  unmatchedShort: string[]
  /** How many of the query's words a listed word spells alike (the same letters or consonants: `sameWord`). */
  sameWords: number
  /** The query's words, its short ones (`PreparedName.short`) counted: what `partialName` and `noSameWord` read. */
  queryWords: number
  /** The query's answered words that no listed word spells with the same letters (`NEAR_PARTIAL_NAME_POINTS`). */
  nearWords: number
}

/**
 * Which words of a query and a listed name answer each other. A listed word answers a query word when they score
 * `WORD_MATCH` (`similarity`, the scorer's own) and their lengths are close; a word of one or two letters answers
 * only itself (COX is not CO), a legal form or linking word too. Between spellings also the same word with another
 * initial (`OTHER_INITIAL_MATCH`) and the same consonants (three or more: vowels are what transliterations change
 * most), both with initials that sound alike, and, for a query word, a compound (it, or it joined with a
 * neighbour, is a listed word or two joined). Each listed word answers one query word at most (the most query
 * words answered, a matching). Between consonant skeletons (`skeletal`) only `SKELETON_WORD_MATCH` answers, and
 * every query word counts unanswered when those answered hold fewer than `SKELETON_MIN_CONSONANTS`.
 */
export function nameEvidence(
  query: PreparedName,
  listed: PreparedName,
  skeletal: boolean,
  similarity: PartSimilarity = (i, j) =>
    partSimilarity(query.parts[i] as string, listed.parts[j] as string, query.codes[i] === listed.codes[j]),
): NameEvidence {
  const minimum = skeletal ? SKELETON_WORD_MATCH : WORD_MATCH
  const answers = (i: number, j: number): boolean => {
    const part = query.parts[i] as string
    const word = listed.parts[j] as string
    if (part === word) return true
    // A word of one or two letters (or consonants) answers only itself.
    if (word.length <= 2 || part.length <= 2) return false
    if (skeletal) return similarity(i, j) >= minimum
    if (!lengthsClose(part, word)) return false
    if (similarity(i, j) >= minimum) return true
    if (word[0] !== part[0] && initialsSoundAlike(part, word) && jaro(part, word) >= OTHER_INITIAL_MATCH)
      return true
    // A legal form or linking word answers only its own misspellings: its consonants are not JANET's (JOINT).
    if (NOISE_WORDS.has(word)) return false
    const skeleton = consonantSkeleton(part)
    return (
      skeleton.length >= SAME_SKELETON_LENGTH &&
      consonantSkeleton(word) === skeleton &&
      initialsSoundAlike(part, word)
    )
  }
  const compound = (word: string, candidates: readonly string[]) =>
    candidates.some((candidate) => lengthsClose(word, candidate) && jaro(word, candidate) >= COMPOUND_MATCH)
  const listedPairs = joinedPairs(listed.parts)
  const queryPairs = joinedPairs(query.parts)
  // Each listed word answers one query word at most: "MELISSA MILLS" is not two words of "GOLD MILES LIMITED".
  const options = query.parts.map((_, i) => listed.parts.flatMap((__, j) => (answers(i, j) ? [j] : [])))
  // A word the listed name repeats (MOHAMMAD HAMDI MOHAMMAD) answers as many.
  const written = listed.whole.split(' ')
  const capacity = listed.parts.map((word) => Math.max(1, written.filter((w) => w === word).length))
  const holders = listed.parts.map((): number[] => [])
  const assign = (i: number, seen: Set<number>): boolean =>
    (options[i] as number[]).some((j) => {
      if (seen.has(j)) return false
      seen.add(j)
      const held = holders[j] as number[]
      if (held.length < (capacity[j] as number)) return held.push(i) > 0
      const moved = held.findIndex((other) => assign(other, seen))
      if (moved < 0) return false
      held[moved] = i
      return true
    })
  query.parts.forEach((_, i) => assign(i, new Set()))
  const assigned = new Set(holders.flat())
  const answeredListed = new Set<number>()
  options.forEach((js, i) => {
    if (assigned.has(i)) for (const j of js) answeredListed.add(j)
  })
  const unmatched: string[] = []
  let consonants = 0
  let nearWords = 0
  query.parts.forEach((part, i) => {
    let found = assigned.has(i)
    const joined = [queryPairs[i - 1], queryPairs[i]].filter((pair): pair is string => pair !== undefined)
    if (!found && !skeletal)
      found = compound(part, listedPairs) || joined.some((pair) => compound(pair, listed.parts))
    if (found) consonants += part.length
    else unmatched.push(part)
    // A compound is the query's words run together, not a word spelt otherwise.
    if (assigned.has(i) && !listed.parts.includes(part)) nearWords += 1
  })
  // The listed name's own words: a piece of a hyphenated or apostrophised word (AL and TIKRITI of AL-TIKRITI)
  // is the word already.
  const words = listed.parts
    .map((word, j) => ({ word, j }))
    .filter(({ word }) => word.length > 2 && !NOISE_WORDS.has(word))
    .filter(({ word }) => !listed.parts.some((other) => other.length > word.length && other.includes(word)))
  const holds = (short: string) =>
    listed.parts.some(
      (word) =>
        word === short ||
        // A word of one letter is an initial: any listed word of that initial holds it.
        (short.length === 1 && word[0] === short) ||
        // A short listed word spelt with other vowels (DE, DA; Y, I) or missing a letter (AGD, AD; ALI, AI).
        (word.length <= SHORT_LISTED_WORD &&
          (consonantSkeleton(word) === consonantSkeleton(short) || isSubsequence(short, word))),
    )
  const listedSkeletons = new Set(listed.parts.map(consonantSkeleton))
  const sameWord = (part: string) =>
    listed.parts.includes(part) ||
    (consonantSkeleton(part).length >= SAME_SKELETON_LENGTH && listedSkeletons.has(consonantSkeleton(part)))
  const short = skeletal ? [] : (query.short ?? [])
  return {
    sameWords:
      query.parts.filter(sameWord).length + short.filter((word) => listed.parts.includes(word)).length,
    queryWords: query.parts.length + short.length,
    nearWords,
    unmatched: skeletal && consonants < SKELETON_MIN_CONSONANTS ? [...query.parts] : unmatched,
    unmatchedShort: short.filter((word) => !holds(word)),
    listedWords: words.length,
    answeredListed: words.filter(({ j }) => answeredListed.has(j)).length,
  }
}

/**
 * The points a hit loses for its evidence: `UNMATCHED_WORD_POINTS`, `SHORT_WORD_POINTS`, `NO_SAME_WORD_POINTS`,
 * `PARTIAL_NAME_POINTS`, `NEAR_PARTIAL_NAME_POINTS`.
 */
export function evidencePoints(evidence: NameEvidence): number {
  return (
    (evidence.unmatched.length > 0 ? UNMATCHED_WORD_POINTS : 0) +
    (evidence.unmatchedShort.length > 0 ? SHORT_WORD_POINTS : 0) +
    (noSameWord(evidence) ? NO_SAME_WORD_POINTS : 0) +
    (partialName(evidence) ? PARTIAL_NAME_POINTS : 0) +
    (nearPartialName(evidence) ? NEAR_PARTIAL_NAME_POINTS : 0)
  )
}

/**
 * The points of the precision rules that a query's short words could only make heavier, never lighter: an
 * unmatched word, and a partial name (its query already has two words or more without them). The short words'
 * own rule, no-same-word (a short word the listed name holds is a same word) and near-partial-name (they count
 * among the query's words) are left out, so a score from evidence without the query's short words (the
 * watched-name index's) stays at or above the screening's.
 */
export function evidencePointsWithoutShort(evidence: NameEvidence): number {
  return (
    (evidence.unmatched.length > 0 ? UNMATCHED_WORD_POINTS : 0) +
    (partialName(evidence) ? PARTIAL_NAME_POINTS : 0)
  )
}

/** Whether a query of two words or more answers at most half of a listed name of three words or more. */
export function partialName(evidence: NameEvidence): boolean {
  return (
    evidence.queryWords >= 2 &&
    evidence.listedWords >= 3 &&
    evidence.answeredListed * 2 <= evidence.listedWords
  )
}

/**
 * Whether a query of fewer words than a listed name of three words or more answers more than half of it, not all,
 * with a word spelt otherwise (`NEAR_PARTIAL_NAME_POINTS`; at most half is `partialName`). A query of as many
 * words names the whole party another way (KIM IL SUNG ~ KIM, Sang Man: OFAC's own score is 93), not a part of it.
 */
export function nearPartialName(evidence: NameEvidence): boolean {
  return (
    evidence.nearWords > 0 &&
    evidence.queryWords < evidence.listedWords &&
    evidence.listedWords >= 3 &&
    evidence.answeredListed < evidence.listedWords &&
    !partialName(evidence)
  )
}

/** Whether a query of two words or more has no word a listed word spells alike (`NO_SAME_WORD_POINTS`). */
export function noSameWord(evidence: NameEvidence): boolean {
  return evidence.queryWords >= 2 && evidence.sameWords === 0
}
