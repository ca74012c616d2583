import type { PreparedName } from '../../matching/prepare-name'
import type { PartVocabulary } from './part-vocabulary'
import type { SkeletonVocabulary } from './skeleton-vocabulary'

/**
 * The lowest similarity each of a query's `n` parts must find in a name whose parts mean reaches `floor`: the
 * other n − 1 parts score at most 1 each, so each part's best is at least n·floor − (n − 1). Above 0, every
 * query part needs a listed part of its own initial (`partSimilarity` is 0 across initials).
 */
export function everyPartFloor(n: number, floor: number): number {
  return n * floor - (n - 1)
}

/** Part similarities of one query part, by vocabulary id, valid where `stamps` holds the search's number. */
interface SimilarityCache {
  values: Float64Array
  stamps: Int32Array
}

/**
 * The `partSimilarity` values of one search, each computed once: per query part, by vocabulary id. The arrays
 * of each query-part position are allocated on first use and reused by every later search (a stamp tells this
 * search's values from older ones), so a search allocates nothing in proportion to the vocabulary.
 */
export class PartSimilarities {
  private generation = 0
  private readonly caches: SimilarityCache[] = []
  private query: PreparedName = { whole: '', parts: [], codes: [] }
  /** The skeletons this search compares, when it compares consonant skeletons. */
  private skeletons: SkeletonVocabulary | undefined

  constructor(private readonly vocabulary: PartVocabulary) {}

  /** Starts the search of `query` (compared with `skeletons` when it is a skeleton): what earlier searches kept no longer counts. */
  begin(query: PreparedName, skeletons?: SkeletonVocabulary): void {
    this.generation = (this.generation + 1) | 0
    this.query = query
    this.skeletons = skeletons
    const size = this.vocabulary.size
    query.parts.forEach(
      (_, i) => (this.caches[i] ??= { values: new Float64Array(size), stamps: new Int32Array(size) }),
    )
  }

  /** Keeps a similarity the search already knows (from `PartVocabulary.similarParts`). */
  set(i: number, id: number, similarity: number): void {
    const cache = this.caches[i] as SimilarityCache
    cache.values[id] = similarity
    cache.stamps[id] = this.generation
  }

  /** `partSimilarity` of query part `i` and vocabulary part `id`, from this search's cache when it has it. */
  get(i: number, id: number): number {
    const part = this.query.parts[i] as string
    const skeletons = this.skeletons
    const initial = skeletons ? skeletons.initial(id) : this.vocabulary.initials[id]
    if (initial !== part.charCodeAt(0)) return 0
    const cache = this.caches[i] as SimilarityCache
    if (cache.stamps[id] === this.generation) return cache.values[id] as number
    const code = this.query.codes[i] as string
    const similarity = skeletons
      ? skeletons.similarity(part, code, id)
      : this.vocabulary.similarity(part, code, id)
    cache.values[id] = similarity
    cache.stamps[id] = this.generation
    return similarity
  }

  /**
   * `scoreName`'s mean of best part similarities for a listed name whose parts are the vocabulary ids
   * `partIds[from .. to)`, summed in the same order from the same values; −1 as soon as the parts left cannot
   * lift it to `floor`.
   */
  partsMean(partIds: Int32Array, from: number, to: number, floor: number): number {
    const n = this.query.parts.length
    if (n === 0) return 0
    let sum = 0
    for (let i = 0; i < n; i += 1) {
      let best = 0
      for (let j = from; j < to && best < 1; j += 1) {
        const similarity = this.get(i, partIds[j] as number)
        if (similarity > best) best = similarity
      }
      sum += best
      // Every part left scores at most 1.
      if (sum + (n - 1 - i) < n * floor) return -1
    }
    return sum / n
  }
}
