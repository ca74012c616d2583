import { consonantSkeleton } from '../../matching/consonant-skeleton'
import { partSimilarity, soundAdjusted } from '../../matching/name-score'
import { soundex } from '../../matching/soundex'
import { JaroWinklerIndex } from '../jaro-winkler-index/jaro-winkler-index'
import type { SimilarParts } from './part-vocabulary'
import { flattenPostings } from './flatten-postings'

/**
 * The consonant skeletons of a vocabulary's parts (`consonantSkeleton`), each once, with a `JaroWinklerIndex`
 * over them: how a skeletal query form (Arabic or Hebrew, or a Latin query against those) finds the parts whose
 * skeleton is similar to one of its own, as `PartVocabulary` does for parts as written.
 */
export class SkeletonVocabulary {
  private constructor(
    /** The skeleton of each vocabulary part, −1 when it has none (no consonant). */
    private readonly ofPart: Int32Array,
    private readonly skeletons: readonly string[],
    private readonly codes: readonly string[],
    private readonly index: JaroWinklerIndex,
    private readonly postingOffsets: Int32Array,
    private readonly postings: Int32Array,
    /** The first character code of each part's skeleton (−1: none): read per candidate part, without a string. */
    private readonly initials: Int32Array,
  ) {}

  /** `only`: the parts to hold (the others have no skeleton here): those of the names written in an abjad. */
  static build(parts: readonly string[], only?: ReadonlySet<number>): SkeletonVocabulary {
    const skeletons: string[] = []
    const idOf = new Map<string, number>()
    const holders: number[][] = []
    const ofPart = Int32Array.from(parts, (part, partId) => {
      const skeleton = !only || only.has(partId) ? consonantSkeleton(part) : ''
      if (skeleton === '') return -1
      let id = idOf.get(skeleton)
      if (id === undefined) {
        id = skeletons.push(skeleton) - 1
        idOf.set(skeleton, id)
        holders.push([])
      }
      holders[id]!.push(partId)
      return id
    })
    const { postingOffsets, postings } = flattenPostings(holders)
    const index = JaroWinklerIndex.build(skeletons)
    const initials = Int32Array.from(ofPart, (skeleton) =>
      skeleton < 0 ? -1 : skeletons[skeleton]!.charCodeAt(0),
    )
    return new SkeletonVocabulary(
      ofPart,
      skeletons,
      skeletons.map(soundex),
      index,
      postingOffsets,
      postings,
      initials,
    )
  }

  /** First character code of part `id`'s skeleton (−1: none). */
  initial(id: number): number {
    return this.initials[id] as number
  }

  /** `partSimilarity` of a query skeleton (with its Soundex code) and the skeleton of part `id`. */
  similarity(part: string, code: string, id: number): number {
    const skeleton = this.ofPart[id] as number
    if (skeleton < 0) return 0
    return partSimilarity(part, this.skeletons[skeleton] as string, code === this.codes[skeleton])
  }

  /** The vocabulary parts whose skeleton's Jaro-Winkler with `part` reaches `floor`, with `similarity`. */
  similarParts(part: string, code: string, floor: number, tick: () => void): SimilarParts {
    const ids: number[] = []
    const similarities: number[] = []
    this.index.forEachAtLeast(
      part,
      floor,
      true,
      (skeleton, similarity) => {
        const value = soundAdjusted(similarity, code === this.codes[skeleton])
        for (
          let k = this.postingOffsets[skeleton] as number;
          k < (this.postingOffsets[skeleton + 1] as number);
          k += 1
        ) {
          ids.push(this.postings[k] as number)
          similarities.push(value)
        }
      },
      tick,
    )
    return { ids: Int32Array.from(ids), similarities: Float64Array.from(similarities) }
  }
}
