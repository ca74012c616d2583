import { listedName } from '../datasets/listed-names'
import type { ListedName, SanctionEntry } from '../datasets/records'
import { BOUND_SLACK } from './jaro-winkler-index/jaro-winkler-bound'
import { comparedListed, explainForm, formsMeet, queryForms, type QueryForm } from '../matching/name-forms'
import { combinedScore, explainScore } from '../matching/name-score'
import type { PreparedName } from '../matching/prepare-name'
import { evidencePoints, nameEvidence, type NameEvidence } from '../matching/name-evidence'
import { ABJAD, buildIndexRows, KOREAN, TRANSLITERATED } from './index-rows'
import { EntryGroups } from './entry-groups'
import { JaroWinklerIndex } from './jaro-winkler-index/jaro-winkler-index'
import { initialBit } from './vocabularies/holder-initials'
import { everyPartFloor, PartSimilarities } from './vocabularies/part-similarities'
import { PartVocabulary } from './vocabularies/part-vocabulary'
import { SkeletonVocabulary } from './vocabularies/skeleton-vocabulary'
import { rankHits, type ListedNames, type NameHit, type SanctionMatch, type Screening } from './rank-hits'
import { ScreeningRules, type ScreeningChoices } from './screening-rules'
import { createBudget } from './search-budget'

export type { SanctionMatch } from './rank-hits'

export interface SanctionsQuery extends ScreeningChoices {
  name: string
  /** Lowest score returned, 0-100. */
  threshold: number
  limit: number
  /** Epoch ms after which the search gives up (`SearchBudgetError`). */
  deadline?: number
}

/** Candidates from which they are scored in name order, read from the `seen` bits (a pass over 128 KB). */
const SORTED_CANDIDATES = 512

/**
 * Fuzzy screening over every name and alias of a sanctions list, returning exactly what scoring every name with
 * `scoreName` would (the reference full scan, `SanctionsScan` in test/support-sanctions-scan.ts), much faster.
 * A name reaches the floor by one of the score's two terms:
 * - the parts' mean: then one of its parts reaches the floor against a query part, so the names holding the
 *   vocabulary parts that do (`PartVocabulary.similarParts`) are the candidates; each candidate's mean is
 *   then computed from cached part similarities, and abandoned as soon as its remaining parts cannot lift it;
 * - the whole name: a `JaroWinklerIndex` over whole names finds every name whose similarity reaches it.
 * Scores are added in the scorer's order from the same similarities, so they are the scan's to the last bit.
 */
export class SanctionsIndex implements ListedNames {
  private generation = 0
  private readonly similarities: PartSimilarities
  /**
   * The names already among the current search's candidates, one bit each: at a million names 128 KB, which the
   * cache holds, where a stamp per name (4 MB) cost a miss per candidate; cleared for each search.
   */
  private readonly seen: Int32Array
  /**
   * The names whose whole reached the floor in the current form's search, with their similarity: a few per
   * search, so a map, where arrays over all names cost a cache miss for every candidate.
   */
  private wholeFound = new Map<number, number>()
  /** Whether some names are written in Arabic or Hebrew (a Latin query's skeleton form has something to meet). */
  private readonly hasAbjad: boolean

  private constructor(
    readonly entries: readonly SanctionEntry[],
    /** Entry of each row (a form of a name, `buildIndexRows`), and which of its names it is a form of. */
    private readonly nameEntry: Int32Array,
    private readonly nameAlias: Int32Array,
    /** Points a match on each row loses for its name's kind (`namePenalty`). */
    private readonly namePoints: Uint8Array,
    /** `TRANSLITERATED`, `ABJAD` and `KOREAN` bits of each row. */
    private readonly nameFlags: Uint8Array,
    readonly groups: EntryGroups,
    private readonly wholes: readonly string[],
    private readonly vocabulary: PartVocabulary,
    private readonly partOffsets: Int32Array,
    private readonly partIds: Int32Array,
    private readonly wholeIndex: JaroWinklerIndex,
    /** The skeletons of the parts of names written in an abjad only: what a Latin query's skeleton meets. */
    private readonly abjadSkeletons: SkeletonVocabulary,
  ) {
    this.similarities = new PartSimilarities(vocabulary)
    this.seen = new Int32Array((wholes.length + 31) >>> 5)
    this.hasAbjad = nameFlags.some((flags) => (flags & ABJAD) !== 0)
  }

  /** `partCacheSize`: query parts whose similar vocabulary parts are kept (`PART_CACHE_SIZE`; 0: none). */
  static build(
    entries: readonly SanctionEntry[],
    { partCacheSize }: { partCacheSize?: number } = {},
  ): SanctionsIndex {
    const rows = buildIndexRows(entries)
    const { vocabulary, partOffsets, partIds } = PartVocabulary.build(rows.parts, {
      cacheSize: partCacheSize,
    })
    return new SanctionsIndex(
      entries,
      rows.entry,
      rows.alias,
      rows.points,
      rows.flags,
      EntryGroups.build(entries),
      rows.wholes,
      vocabulary,
      partOffsets,
      partIds,
      JaroWinklerIndex.build(rows.wholes, { acrossInitials: true }),
      SkeletonVocabulary.build(vocabulary.parts, abjadParts(rows.flags, partOffsets, partIds)),
    )
  }

  get size(): number {
    return this.entries.length
  }

  get nameCount(): number {
    return this.wholes.length
  }

  display(name: number): string {
    const entry = this.entries[this.nameEntry[name] as number] as SanctionEntry
    const alias = this.nameAlias[name] as number
    return alias < 0 ? entry.name : (entry.aliases[alias] as string)
  }

  listed(name: number): ListedName {
    const entry = this.entries[this.nameEntry[name] as number] as SanctionEntry
    return listedName(entry, (this.nameAlias[name] as number) + 1)
  }

  prepared(name: number): PreparedName {
    const ids = this.partIds.subarray(this.partOffsets[name], this.partOffsets[name + 1])
    return {
      whole: this.wholes[name] as string,
      parts: Array.from(ids, (id) => this.vocabulary.parts[id] as string),
      codes: Array.from(ids, (id) => this.vocabulary.codes[id] as string),
    }
  }

  /** The best `limit` entries reaching the threshold, best first. */
  search(query: SanctionsQuery): SanctionMatch[] {
    return this.screen(query).matches
  }

  /**
   * `search`, and how many parties reached the threshold in all (more than `limit` means it was cut). Each of
   * the query's forms (`queryForms`) is searched; a name's score loses its kind's points (a weak alias) and its
   * entry's birth-year points, so it is never above the score the candidates were found for: the candidates stay
   * every name that may reach the threshold.
   */
  screen({ name, threshold, limit, deadline, ...choices }: SanctionsQuery): Screening {
    const forms = queryForms(name).filter((form) => !form.abjadOnly || this.hasAbjad)
    const tick = createBudget(deadline)
    // Scores are rounded to whole points: a name at 84.5 already scores 85.
    const floor = (threshold - 0.5) / 100 - BOUND_SLACK
    const rules = new ScreeningRules(this.entries, choices)
    const hits: NameHit[] = []
    // The name as written last: `explain` reuses the similarities of that search.
    for (let form = forms.length - 1; form >= 0; form -= 1)
      this.searchForm(forms[form] as QueryForm, form, { floor, threshold, tick, rules, hits })
    return rankHits(hits, forms, limit, this, rules)
  }

  /** The rows reaching the threshold for one query form, added to `hits`. */
  private searchForm(
    form: QueryForm,
    formIndex: number,
    search: { floor: number; threshold: number; tick: () => void; rules: ScreeningRules; hits: NameHit[] },
  ): void {
    const { floor, threshold, tick, rules, hits } = search
    this.generation = (this.generation + 1) | 0
    this.similarities.begin(form.prepared, this.skeletonsOf(form))
    this.wholeFound = new Map()
    for (const candidate of this.candidates(form, floor, tick)) {
      tick()
      const parts = this.similarities.partsMean(
        this.partIds,
        this.partOffsets[candidate] as number,
        this.partOffsets[candidate + 1] as number,
        floor,
      )
      const raw = combinedScore(parts, this.wholeSimilarity(candidate) ?? 0)
      // What follows only filters or lowers the score (never below 0, and 0 ≤ raw): most candidates stop here,
      // before the reads of their entry, flags and points (a cache miss each at a million names).
      if (raw < threshold) continue
      const entry = this.nameEntry[candidate] as number
      if (!this.formsMeet(form, this.nameFlags[candidate] as number)) continue
      if (!rules.allows(entry)) continue
      const points = (this.namePoints[candidate] as number) + rules.birthPenalty(entry)
      if (Math.max(0, raw - points) < threshold) continue
      const evidence = this.evidence(form, candidate)
      const score = Math.max(0, raw - points - evidencePoints(evidence))
      if (score >= threshold) hits.push({ name: candidate, entry, score, form: formIndex, evidence })
    }
  }

  /** How the query form's words and name `name`'s answer each other (`nameEvidence`, as the reference scan asks). */
  private evidence(form: QueryForm, name: number): NameEvidence {
    return nameEvidence(form.prepared, comparedListed(form, this.prepared(name)), form.skeletal)
  }

  partCount(name: number): number {
    return (this.partOffsets[name + 1] as number) - (this.partOffsets[name] as number)
  }

  /** The skeletons a skeletal form is compared with: only those of abjad names for a Latin query's skeleton. */
  private skeletonsOf(form: QueryForm): SkeletonVocabulary | undefined {
    if (!form.skeletal) return undefined
    return form.abjadOnly ? this.abjadSkeletons : this.vocabulary.skeletons
  }

  /** `formsMeet` for a row's flags. */
  private formsMeet(form: QueryForm, flags: number): boolean {
    return formsMeet(form, {
      abjad: (flags & ABJAD) !== 0,
      transliterated: (flags & TRANSLITERATED) !== 0,
      korean: (flags & KOREAN) !== 0,
    })
  }

  /** Whether row `name` is a Latin spelling of a name written in another script. */
  transliterated(name: number): boolean {
    return ((this.nameFlags[name] as number) & TRANSLITERATED) !== 0
  }

  /**
   * Why `name` scored what it did for query form `formIndex`: for the name as written (searched last), the
   * similarities this search computed, reused (none computed twice); for another form, computed anew.
   */
  explain(form: QueryForm, formIndex: number, name: number) {
    if (formIndex !== 0) return explainForm(form, this.prepared(name))
    const from = this.partOffsets[name] as number
    return explainScore(
      form.prepared,
      this.prepared(name),
      (i, j) => this.similarities.get(i, this.partIds[from + j] as number),
      this.wholeSimilarity(name),
    )
  }

  /**
   * The names that may reach `floor`, each once: every name at threshold 0; else the holders of the vocabulary
   * parts similar enough to a query part, and the names whose whole is (their similarity kept for scoring).
   */
  private candidates(form: QueryForm, floor: number, tick: () => void): number[] {
    const { prepared: query, skeletal } = form
    const skeletons = this.skeletonsOf(form)
    const seen = this.seen.fill(0)
    const candidates: number[] = []
    const add = (name: number) => {
      const bit = 1 << (name & 31)
      if (((seen[name >>> 5] as number) & bit) !== 0) return
      seen[name >>> 5] = (seen[name >>> 5] as number) | bit
      candidates.push(name)
    }
    // Threshold 0: every name scores at least that.
    if (floor <= 0) for (let name = 0; name < this.wholes.length; name += 1) add(name)
    // A name the parts mean can lift needs a part of each query part's initial (`everyPartFloor`, with slack
    // for rounding); a name whose whole reaches the floor is found below whatever its parts.
    let initials = 0
    if (everyPartFloor(query.parts.length, floor) > BOUND_SLACK)
      for (const part of query.parts) initials |= initialBit(part.charCodeAt(0))
    query.parts.forEach((part, i) => {
      const code = query.codes[i] as string
      const { ids, similarities } = skeletons
        ? skeletons.similarParts(part, code, floor, tick)
        : this.vocabulary.similarParts(part, code, floor, tick)
      for (let k = 0; k < ids.length; k += 1) {
        const id = ids[k] as number
        const similarity = similarities[k] as number
        this.similarities.set(i, id, similarity)
        if (similarity >= floor) this.vocabulary.forEachHolder(id, initials, skeletons !== undefined, add)
      }
    })
    const visitWhole = (name: number, similarity: number) => {
      this.wholeFound.set(name, similarity)
      add(name)
    }
    // Skeletons have no whole-name form.
    if (!skeletal) this.wholeIndex.forEachAtLeast(query.whole, floor, false, visitWhole, tick)
    // Scored in name order when they are many: their parts, entries and flags are then read front to back, not
    // a cache miss each (a query holding AL- has thousands). The ranking does not depend on the order.
    return candidates.length < SORTED_CANDIDATES ? candidates : setBits(seen)
  }

  /** The whole-name similarity of `name` when this search found it reaching the floor, else undefined. */
  private wholeSimilarity(name: number): number | undefined {
    return this.wholeFound.get(name)
  }
}

/** The positions of the bits set in `bits`, in order. */
function setBits(bits: Int32Array): number[] {
  const positions: number[] = []
  for (let word = 0; word < bits.length; word += 1) {
    let left = bits[word] as number
    while (left !== 0) {
      const bit = 31 - Math.clz32(left & -left)
      positions.push((word << 5) + bit)
      left &= left - 1
    }
  }
  return positions
}

/** The vocabulary ids of the parts of rows written in an abjad (`ABJAD`). */
function abjadParts(flags: Uint8Array, partOffsets: Int32Array, partIds: Int32Array): Set<number> {
  const parts = new Set<number>()
  flags.forEach((flag, row) => {
    if ((flag & ABJAD) === 0) return
    for (let k = partOffsets[row] as number; k < (partOffsets[row + 1] as number); k += 1)
      parts.add(partIds[k] as number)
  })
  return parts
}
