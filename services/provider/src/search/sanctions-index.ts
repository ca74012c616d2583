import type { SanctionEntry } from '../datasets/records'
import { SearchBudgetError } from '../errors'
import { BOUND_SLACK } from './jaro-winkler-bound'
import {
  combinedScore,
  explainScore,
  prepareListedName,
  prepareQueryName,
  type PreparedName,
} from './name-score'
import { normalizeCountry } from './normalize-country'
import { PartVocabulary } from './part-vocabulary'
import { rankHits, type NameHit, type SanctionMatch, type Screening } from './rank-hits'
import { JaroWinklerIndex } from './jaro-winkler-index'

export type { SanctionMatch } from './rank-hits'

export interface SanctionsQuery {
  name: string
  country?: string | null
  /** Lowest score returned, 0-100. */
  threshold: number
  limit: number
  /** Epoch ms after which the search gives up (`SearchBudgetError`). */
  deadline?: number
}

/** Part similarities of one query part, by vocabulary id, valid where `stamps` holds the search's number. */
interface SimilarityCache {
  values: Float64Array
  stamps: Int32Array
}

/**
 * Fuzzy screening over every name and alias of a sanctions list, returning exactly what scoring every name with
 * `scoreName` would (`SanctionsScan`), much faster. A name reaches the floor by one of the score's two terms:
 * - the parts' mean: then one of its parts reaches the floor against a query part, so the names holding the
 *   vocabulary parts that do (`PartVocabulary.similarParts`) are the candidates; each candidate's mean is
 *   then computed from cached part similarities, and abandoned as soon as its remaining parts cannot lift it;
 * - the whole name: a `JaroWinklerIndex` over whole names finds every name whose similarity reaches it.
 * Scores are added in the scorer's order from the same similarities, so they are the scan's to the last bit.
 */
export class SanctionsIndex {
  private generation = 0
  private readonly caches: SimilarityCache[] = []
  private readonly candidateStamps: Int32Array
  private readonly wholeStamps: Int32Array
  private readonly wholeValues: Float64Array

  private constructor(
    readonly entries: readonly SanctionEntry[],
    /** Entry of each name, and which of its names it is (−1: the entry's name, k: its alias k). */
    private readonly nameEntry: Int32Array,
    private readonly nameAlias: Int32Array,
    private readonly wholes: readonly string[],
    private readonly vocabulary: PartVocabulary,
    private readonly partOffsets: Int32Array,
    private readonly partIds: Int32Array,
    private readonly wholeIndex: JaroWinklerIndex,
  ) {
    this.candidateStamps = new Int32Array(wholes.length)
    this.wholeStamps = new Int32Array(wholes.length)
    this.wholeValues = new Float64Array(wholes.length)
  }

  /** `partCacheSize`: query parts whose similar vocabulary parts are kept (`PART_CACHE_SIZE`; 0: none). */
  static build(
    entries: readonly SanctionEntry[],
    { partCacheSize }: { partCacheSize?: number } = {},
  ): SanctionsIndex {
    const nameEntry: number[] = []
    const nameAlias: number[] = []
    const wholes: string[] = []
    const parts: string[][] = []
    entries.forEach((entry, index) => {
      ;[entry.name, ...entry.aliases].forEach((display, alias) => {
        const prepared = prepareListedName(display)
        nameEntry.push(index)
        nameAlias.push(alias - 1)
        wholes.push(prepared.whole)
        parts.push(prepared.parts)
      })
    })
    const { vocabulary, partOffsets, partIds } = PartVocabulary.build(parts, { cacheSize: partCacheSize })
    return new SanctionsIndex(
      entries,
      Int32Array.from(nameEntry),
      Int32Array.from(nameAlias),
      wholes,
      vocabulary,
      partOffsets,
      partIds,
      JaroWinklerIndex.build(wholes, { acrossInitials: true }),
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

  /** `search`, and how many entries reached the threshold in all (more than `limit` means it was cut). */
  screen({ name, country, threshold, limit, deadline }: SanctionsQuery): Screening {
    const query = prepareQueryName(name)
    const tick = createBudget(deadline)
    // Scores are rounded to whole points: a name at 84.5 already scores 85.
    const floor = (threshold - 0.5) / 100 - BOUND_SLACK
    const generation = (this.generation = (this.generation + 1) | 0)
    const caches = query.parts.map((_, i) => this.cache(i))
    const candidates: number[] = []
    const add = (name: number) => {
      if (this.candidateStamps[name] === generation) return
      this.candidateStamps[name] = generation
      candidates.push(name)
    }

    // Threshold 0: every name scores at least that.
    if (floor <= 0) for (let name = 0; name < this.wholes.length; name += 1) add(name)
    query.parts.forEach((part, i) => {
      const cache = caches[i] as SimilarityCache
      const { ids, similarities } = this.vocabulary.similarParts(part, query.codes[i] as string, floor, tick)
      for (let k = 0; k < ids.length; k += 1) {
        const id = ids[k] as number
        const similarity = similarities[k] as number
        cache.values[id] = similarity
        cache.stamps[id] = generation
        if (similarity >= floor) for (const holder of this.vocabulary.holders(id)) add(holder)
      }
    })
    this.wholeIndex.forEachAtLeast(
      query.whole,
      floor,
      false,
      (name, similarity) => {
        this.wholeStamps[name] = generation
        this.wholeValues[name] = similarity
        add(name)
      },
      tick,
    )

    const code = country?.trim() ? normalizeCountry(country) : undefined
    const hits: NameHit[] = []
    for (const candidate of candidates) {
      tick()
      const entry = this.nameEntry[candidate] as number
      if (code !== undefined && !(this.entries[entry] as SanctionEntry).countries.includes(code ?? ''))
        continue
      const parts = this.partsMean(query, candidate, caches, floor, generation)
      const whole = this.wholeStamps[candidate] === generation ? (this.wholeValues[candidate] as number) : 0
      const score = combinedScore(parts, whole)
      if (score >= threshold) hits.push({ name: candidate, entry, score })
    }
    return rankHits(hits, query, limit, {
      entries: this.entries,
      display: (name) => this.display(name),
      // The similarities this search computed, reused: explaining a hit costs no comparison twice.
      explain: (prepared, name) => {
        const from = this.partOffsets[name] as number
        return explainScore(
          prepared,
          this.prepared(name),
          (i, j) => this.similarity(prepared, i, this.partIds[from + j] as number, caches, generation),
          this.wholeStamps[name] === generation ? this.wholeValues[name] : undefined,
        )
      },
    })
  }

  /**
   * `scoreName`'s mean of best part similarities for one listed name, summed in the same order from the same
   * values; −1 as soon as the parts left cannot lift it to `floor`.
   */
  private partsMean(
    query: PreparedName,
    name: number,
    caches: SimilarityCache[],
    floor: number,
    generation: number,
  ): number {
    const n = query.parts.length
    if (n === 0) return 0
    const from = this.partOffsets[name] as number
    const to = this.partOffsets[name + 1] as number
    let sum = 0
    for (let i = 0; i < n; i += 1) {
      let best = 0
      for (let j = from; j < to && best < 1; j += 1) {
        const similarity = this.similarity(query, i, this.partIds[j] as number, caches, generation)
        if (similarity > best) best = similarity
      }
      sum += best
      // Every part left scores at most 1.
      if (sum + (n - 1 - i) < n * floor) return -1
    }
    return sum / n
  }

  /** `partSimilarity` of query part `i` and vocabulary part `id`, from this search's cache when it has it. */
  private similarity(
    query: PreparedName,
    i: number,
    id: number,
    caches: SimilarityCache[],
    generation: number,
  ): number {
    const part = query.parts[i] as string
    if (this.vocabulary.initials[id] !== part.charCodeAt(0)) return 0
    const cache = caches[i] as SimilarityCache
    if (cache.stamps[id] === generation) return cache.values[id] as number
    const similarity = this.vocabulary.similarity(part, query.codes[i] as string, id)
    cache.values[id] = similarity
    cache.stamps[id] = generation
    return similarity
  }

  /** The similarity cache of query part `i`, allocated on first use and reused by every later search. */
  private cache(i: number): SimilarityCache {
    const size = this.vocabulary.size
    return (this.caches[i] ??= { values: new Float64Array(size), stamps: new Int32Array(size) })
  }
}

/** Checks the clock every 4096 steps: a search past its deadline stops with `SearchBudgetError`. */
function createBudget(deadline: number | undefined): () => void {
  if (deadline === undefined) return () => {}
  let steps = 0
  return () => {
    if ((steps += 1) % 4096 !== 0) return
    if (Date.now() > deadline) throw new SearchBudgetError('search took longer than its time budget')
  }
}
