import { JaroWinklerIndex } from '../jaro-winkler-index/jaro-winkler-index'
import { partSimilarity, soundAdjusted } from '../../matching/name-score'
import { soundex } from '../../matching/soundex'
import { SkeletonVocabulary } from './skeleton-vocabulary'
import { flattenPostings } from './flatten-postings'
import { holderInitials } from './holder-initials'

/** Answers of `similarParts` kept per vocabulary by default (least recently used first out). */
export const PART_CACHE_SIZE = 4096

/** Vocabulary parts and their `partSimilarity` with one query part. */
export interface SimilarParts {
  ids: Int32Array
  similarities: Float64Array
}

/**
 * The distinct parts of every listed name, with their Soundex codes and the names that hold them, and a
 * `JaroWinklerIndex` over them: `partSimilarity` is 0 across initials and never above Jaro-Winkler, so the
 * parts similar enough to a query part are among those whose Jaro-Winkler with it is.
 */
export class PartVocabulary {
  private readonly cache = new Map<string, SimilarParts>()

  private constructor(
    private readonly cacheSize: number,
    readonly parts: readonly string[],
    readonly codes: readonly string[],
    /** First character code of each part. */
    readonly initials: Int32Array,
    private readonly index: JaroWinklerIndex,
    private readonly postingOffsets: Int32Array,
    private readonly postings: Int32Array,
    /** The parts' consonant skeletons, for skeletal query forms (Arabic, Hebrew). */
    readonly skeletons: SkeletonVocabulary,
    /** The initials of each posting's name, of its parts and of their skeletons (`holderInitials`). */
    private readonly postingInitials: Int32Array,
    private readonly postingSkeletonInitials: Int32Array,
  ) {}

  /**
   * The vocabulary of `names` (each a list of parts), and each name's parts as vocabulary ids, flat:
   * name k's are `partIds[partOffsets[k] .. partOffsets[k + 1])`.
   */
  static build(
    names: readonly (readonly string[])[],
    { cacheSize = PART_CACHE_SIZE }: { cacheSize?: number } = {},
  ): {
    vocabulary: PartVocabulary
    partOffsets: Int32Array
    partIds: Int32Array
  } {
    const parts: string[] = []
    const idOf = new Map<string, number>()
    const holders: number[][] = []
    const partOffsets = new Int32Array(names.length + 1)
    const ids: number[] = []
    names.forEach((nameParts, name) => {
      for (const part of nameParts) {
        let id = idOf.get(part)
        if (id === undefined) {
          id = parts.push(part) - 1
          idOf.set(part, id)
          holders.push([])
        }
        holders[id]!.push(name)
        ids.push(id)
      }
      partOffsets[name + 1] = ids.length
    })
    const { postingOffsets, postings } = flattenPostings(holders)
    const partIds = Int32Array.from(ids)
    const initials = Int32Array.from(parts, (part) => part.charCodeAt(0))
    const skeletons = SkeletonVocabulary.build(parts)
    const vocabulary = new PartVocabulary(
      cacheSize,
      parts,
      parts.map(soundex),
      initials,
      JaroWinklerIndex.build(parts),
      postingOffsets,
      postings,
      skeletons,
      holderInitials(postings, partOffsets, partIds, (id) => initials[id] as number),
      holderInitials(postings, partOffsets, partIds, (id) => skeletons.initial(id)),
    )
    return { vocabulary, partOffsets, partIds }
  }

  get size(): number {
    return this.parts.length
  }

  /** `partSimilarity` of a query part (with its Soundex code) and part `id`. */
  similarity(part: string, code: string, id: number): number {
    return partSimilarity(part, this.parts[id] as string, code === this.codes[id])
  }

  /**
   * Calls `visit(name)` for each name holding part `id` whose parts (their skeletons when `skeletal`) have
   * every initial in the mask `initials` (`initialBit`; 0: every holder).
   */
  forEachHolder(id: number, initials: number, skeletal: boolean, visit: (name: number) => void): void {
    const masks = skeletal ? this.postingSkeletonInitials : this.postingInitials
    for (let k = this.postingOffsets[id] as number; k < (this.postingOffsets[id + 1] as number); k += 1)
      if (((masks[k] as number) & initials) === initials) visit(this.postings[k] as number)
  }

  /**
   * The parts whose Jaro-Winkler with `part` reaches `floor`, with their exact `partSimilarity` (some of them
   * below the floor after the Soundex factor). The last `cacheSize` answers are kept: screening traffic
   * repeats name parts (MOHAMMED, AL, BANK), and an answer never changes for one vocabulary.
   */
  similarParts(part: string, code: string, floor: number, tick: () => void): SimilarParts {
    const key = `${floor} ${part}`
    const cached = this.cache.get(key)
    if (cached) {
      // Refreshed as the most recently used.
      this.cache.delete(key)
      this.cache.set(key, cached)
      return cached
    }
    const ids: number[] = []
    const similarities: number[] = []
    this.index.forEachAtLeast(
      part,
      floor,
      true,
      (id, similarity) => {
        ids.push(id)
        similarities.push(soundAdjusted(similarity, code === this.codes[id]))
      },
      tick,
    )
    const found = { ids: Int32Array.from(ids), similarities: Float64Array.from(similarities) }
    if (this.cacheSize === 0) return found
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value as string)
    this.cache.set(key, found)
    return found
  }
}
