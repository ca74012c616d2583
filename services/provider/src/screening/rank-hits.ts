import type { ListedName, SanctionEntry } from '../datasets/records'
import { BIRTH_YEAR_MISMATCH_POINTS } from '../matching/birth-year'
import type { QueryForm } from '../matching/name-forms'
import type { ScoreExplanation } from '../matching/name-score'
import { WEAK_ALIAS_POINTS } from '../matching/name-weight'
import {
  NEAR_PARTIAL_NAME_POINTS,
  nearPartialName,
  NO_SAME_WORD_POINTS,
  noSameWord,
  PARTIAL_NAME_POINTS,
  partialName,
  SHORT_WORD_POINTS,
  UNMATCHED_WORD_POINTS,
  type NameEvidence,
} from '../matching/name-evidence'
import type { EntryGroups } from './entry-groups'
import type { ScreeningRules } from './screening-rules'

/** What lowered a hit's score below its name's, and by how many points. */
export interface ScoreAdjustment {
  rule:
    | 'weak-alias'
    | 'birth-year'
    | 'unmatched-word'
    | 'unmatched-short-word'
    | 'no-same-word'
    | 'partial-name'
    | 'near-partial-name'
  points: number
  detail: string
}

/** Why a hit scored what it did: its name's score, the matched name's kind, and what lowered it. */
export interface HitExplanation extends ScoreExplanation {
  /** The matched name's kind, quality and script, for lists that say them (absent: OFAC CSV, JSON Lines). */
  name?: Omit<ListedName, 'name'>
  /** The name's score before `adjustments`, when there are some. */
  nameScore?: number
  adjustments?: ScoreAdjustment[]
  /**
   * Which forms met: both names as written (`original`), or a Latin spelling of either one (`transliterated`,
   * `toLatin`); the `parts` are those of the forms that met.
   */
  matchedForm: 'original' | 'transliterated'
  /**
   * `consonant-skeleton` when the forms were compared without vowels (Arabic, Hebrew: `consonantSkeleton`);
   * `korean-romanisation` when by the romanisation keys of Korean names (`koreanName`: Kim/Gim, Jong/Jeong).
   */
  comparedAs?: 'consonant-skeleton' | 'korean-romanisation'
}

/** A list a hit's party is on, with its id there (`version` added by the search engine). */
export interface HitList {
  name: string
  id: string
  version?: string
}

/** A screening hit: the entry, the score, which of its names matched and how the score came about. */
export interface SanctionMatch extends Omit<SanctionEntry, 'names' | 'sameAs'> {
  score: number
  matchedName: string
  explanation: HitExplanation
  /** Every screened list the party is on (one hit for one party, `EntryGroups`). */
  lists: HitList[]
}

/** A screening's answer: the best `limit` entries, and how many entries reached the threshold in all. */
export interface Screening {
  matches: SanctionMatch[]
  total: number
}

/** A listed name that reached the threshold: its id (entries' names and aliases in list order) and score. */
export interface NameHit {
  name: number
  entry: number
  score: number
  /** The query form (`queryForms`) it was found by. */
  form: number
  /** How the form's words and the name's answer each other (`nameEvidence`): what the precision rules took off. */
  evidence?: NameEvidence
}

/** What ranking needs to know of the listed names, whichever search found them. */
export interface ListedNames {
  entries: readonly SanctionEntry[]
  groups: EntryGroups
  display(name: number): string
  /** The name's kind, quality and script. */
  listed(name: number): ListedName
  /** Why name `name` scored what it did for query form `formIndex` (`explainForm`). */
  explain(form: QueryForm, formIndex: number, name: number): ScoreExplanation
  /** Whether name `name` is a Latin spelling of a name written in another script. */
  transliterated(name: number): boolean
  /** How many parts name `name` has: of two names scoring alike, the one with fewer says less beside the query. */
  partCount(name: number): number
}

function explainHit(
  hit: NameHit,
  forms: readonly QueryForm[],
  names: ListedNames,
  rules: ScreeningRules,
): HitExplanation {
  const form = forms[hit.form] as QueryForm
  const explanation = names.explain(form, hit.form, hit.name)
  const entry = names.entries[hit.entry] as SanctionEntry
  const { name: _name, ...detail } = names.listed(hit.name)
  const adjustments: ScoreAdjustment[] = []
  if (detail.kind === 'weak-alias')
    adjustments.push({
      rule: 'weak-alias',
      points: WEAK_ALIAS_POINTS,
      detail: `matched a weak alias${detail.quality ? ` (quality ${detail.quality})` : ''}`,
    })
  if (rules.birthPenalty(hit.entry) > 0)
    adjustments.push({
      rule: 'birth-year',
      points: BIRTH_YEAR_MISMATCH_POINTS,
      detail: `born ${(entry.birthDates ?? []).join(', ')}, not within a year of ${rules.choices.birthYear}`,
    })
  const evidence = hit.evidence
  if (evidence && evidence.unmatched.length > 0)
    adjustments.push({
      rule: 'unmatched-word',
      points: UNMATCHED_WORD_POINTS,
      detail: `no word of the listed name answers ${evidence.unmatched.join(', ')}`,
    })
  if (evidence && evidence.unmatchedShort.length > 0)
    adjustments.push({
      rule: 'unmatched-short-word',
      points: SHORT_WORD_POINTS,
      detail: `the listed name does not hold ${evidence.unmatchedShort.join(', ')}`,
    })
  if (evidence && noSameWord(evidence))
    adjustments.push({
      rule: 'no-same-word',
      points: NO_SAME_WORD_POINTS,
      detail: 'no word of the query is spelt as a word of the listed name (letters or consonants)',
    })
  if (evidence && partialName(evidence))
    adjustments.push({
      rule: 'partial-name',
      points: PARTIAL_NAME_POINTS,
      detail: `the query answers ${evidence.answeredListed} of the listed name's ${evidence.listedWords} words`,
    })
  if (evidence && nearPartialName(evidence))
    adjustments.push({
      rule: 'near-partial-name',
      points: NEAR_PARTIAL_NAME_POINTS,
      detail: `the query answers ${evidence.answeredListed} of the listed name's ${evidence.listedWords} words, ${evidence.nearWords} spelt otherwise`,
    })
  return {
    ...explanation,
    score: hit.score,
    matchedForm: form.transliterated || names.transliterated(hit.name) ? 'transliterated' : 'original',
    ...(form.skeletal ? { comparedAs: 'consonant-skeleton' as const } : {}),
    ...(form.korean ? { comparedAs: 'korean-romanisation' as const } : {}),
    ...(entry.names ? { name: detail } : {}),
    ...(adjustments.length > 0 ? { nameScore: explanation.score, adjustments } : {}),
  }
}

function matchOf(
  hit: NameHit,
  forms: readonly QueryForm[],
  names: ListedNames,
  rules: ScreeningRules,
): SanctionMatch {
  const { names: _names, sameAs: _sameAs, ...entry } = names.entries[hit.entry] as SanctionEntry
  const lists = names.groups
    .members(hit.entry)
    .filter((member) => member === hit.entry || rules.allows(member))
    .map((member) => names.entries[member] as SanctionEntry)
    .map(({ list, id }) => ({ name: list ?? '', id }))
  return {
    ...entry,
    score: hit.score,
    matchedName: names.display(hit.name),
    explanation: explainHit(hit, forms, names, rules),
    lists,
  }
}

/**
 * The answer of a screening from its name hits, the same whichever search found them: each party once (an
 * `EntryGroups` group) by its best name (one met as written, then the first in list order on a tie), the best `limit` by score, then the fewest parts of
 * the matched name (at 100, "SADDAM HUSSEIN" is the party of that name before "ALI SADDAM HUSSEIN"), then
 * entry name, then list order, each with the explanation of its score and the lists it is on.
 */
export function rankHits(
  hits: readonly NameHit[],
  forms: readonly QueryForm[],
  limit: number,
  names: ListedNames,
  rules: ScreeningRules,
): Screening {
  // A party's best name: the highest score, then one met as written, then the first in list order, then the
  // first query form.
  const crossed = (hit: NameHit) => {
    const form = forms[hit.form] as QueryForm
    return form.transliterated || form.skeletal || form.korean || names.transliterated(hit.name) ? 1 : 0
  }
  const order = (x: NameHit, y: NameHit) =>
    y.score - x.score || crossed(x) - crossed(y) || x.name - y.name || x.form - y.form
  const best = new Map<number, NameHit>()
  for (const hit of hits) {
    const group = names.groups.group(hit.entry)
    const current = best.get(group)
    if (!current || order(hit, current) < 0) best.set(group, hit)
  }
  const ranking = (x: NameHit, y: NameHit) =>
    y.score - x.score ||
    names.partCount(x.name) - names.partCount(y.name) ||
    (names.entries[x.entry] as SanctionEntry).name.localeCompare(
      (names.entries[y.entry] as SanctionEntry).name,
    ) ||
    x.entry - y.entry
  const matches = selectTop([...best.values()], limit, ranking).map((hit) =>
    matchOf(hit, forms, names, rules),
  )
  return { matches, total: best.size }
}
/** The first `k` items in `order`, sorted, without sorting all of them (a bounded max-heap of the best k). */
export function selectTop<T>(items: T[], k: number, order: (x: T, y: T) => number): T[] {
  if (items.length <= k) return items.sort(order)
  // heap[0] is the worst of the k best so far.
  const heap: T[] = []
  const worse = (i: number, j: number) => order(heap[i] as T, heap[j] as T) > 0
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as T, heap[i] as T])
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item)
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1)
    } else if (k > 0 && order(item, heap[0] as T) < 0) {
      heap[0] = item
      for (let i = 0; ;) {
        const left = 2 * i + 1
        const right = left + 1
        let top = i
        if (left < k && worse(left, top)) top = left
        if (right < k && worse(right, top)) top = right
        if (top === i) break
        swap(i, top)
        i = top
      }
    }
  }
  return heap.sort(order)
}
