import { listedNames } from '../../datasets/listed-names'
import type { SanctionEntry } from '../../datasets/records'
import { skeletonName } from '../../matching/consonant-skeleton'
import { listedForms, queryForms } from '../../matching/name-forms'
import type { PreparedName } from '../../matching/prepare-name'
import { BOUND_SLACK } from '../../screening/jaro-winkler-index/jaro-winkler-bound'
import { JaroWinklerIndex } from '../../screening/jaro-winkler-index/jaro-winkler-index'
import { initialBit } from '../../screening/vocabularies/holder-initials'
import { everyPartFloor } from '../../screening/vocabularies/part-similarities'
import { PartVocabulary } from '../../screening/vocabularies/part-vocabulary'
import { flattenPostings } from '../../screening/vocabularies/flatten-postings'
import type { WatchedSubject } from './watched-subject'

/** The lowest similarity a name's score term needs to reach `threshold` (rounded: 84.5 is 85), as the index's. */
const floorOf = (threshold: number) => (threshold - 0.5) / 100 - BOUND_SLACK

const noTick = () => {}

/**
 * The watched subjects' names, indexed to answer the re-screen's question the other way round: which subjects
 * may a listed entry hit? Screening a subject (the query) scores each listed name by the larger of two terms
 * (`scoreName`), and a hit needs that score at its watch's threshold before any rule lowers it, so one of them
 * reaches the floor:
 * - the parts' mean: then one of the subject's parts has a similarity at the floor with a listed part; the
 *   subjects' distinct parts are a `PartVocabulary` searched with each listed part (Jaro-Winkler is symmetric,
 *   `partSimilarity` never above it). Where every part of the subject must score above 0
 *   (`everyPartFloor`), every one of its initials is one of the listed parts' initials (`partSimilarity` is 0
 *   across initials), which leaves out most holders of a common part;
 * - the whole name: a `JaroWinklerIndex` over the subjects' whole names, searched with the listed whole.
 * Consonant-skeleton forms are searched with the listed name's skeletons, as screening compares them. What it
 * returns is every subject that may hit, and few others: the re-screen scores those exactly (`rescreenChange`).
 */
export class WatchedNameIndex {
  private constructor(
    readonly subjects: readonly WatchedSubject[],
    /** The subjects of each distinct name: `subjectsOf[subjectOffsets[n] .. subjectOffsets[n + 1])`. */
    private readonly subjectOffsets: Int32Array,
    private readonly subjectsOf: Int32Array,
    /** Each subject's floor (`floorOf` its watch's threshold). */
    private readonly floors: Float64Array,
    private readonly minFloor: number,
    /** Subjects at a floor of 0 or below: every listed name reaches it. */
    private readonly always: Int32Array,
    /** The distinct name of each row (a query form of a name, `queryForms`), its part count and initials. */
    private readonly rowName: Int32Array,
    private readonly rowParts: Uint8Array,
    private readonly rowInitials: Int32Array,
    private readonly vocabulary: PartVocabulary,
    /** The rows of each distinct whole: `wholeRows[wholeOffsets[w] .. wholeOffsets[w + 1])`. */
    private readonly wholeOffsets: Int32Array,
    private readonly wholeRows: Int32Array,
    private readonly wholes: JaroWinklerIndex,
  ) {}

  static build(subjects: readonly WatchedSubject[]): WatchedNameIndex {
    const nameIds = new Map<string, number>()
    const nameOf = Int32Array.from(subjects, ({ name }) => {
      const known = nameIds.get(name)
      if (known !== undefined) return known
      nameIds.set(name, nameIds.size)
      return nameIds.size - 1
    })
    const { offsets: subjectOffsets, members: subjectsOf } = groupBy(nameOf, nameIds.size)
    const rowName: number[] = []
    const rowParts: string[][] = []
    const rowWholes: string[] = []
    for (const [name, id] of nameIds)
      for (const { prepared } of queryForms(name)) {
        rowName.push(id)
        rowParts.push(prepared.parts)
        rowWholes.push(prepared.whole)
      }
    const wholeIds = new Map<string, number>()
    const wholeOf = Int32Array.from(rowWholes, (whole) => {
      if (whole === '') return -1
      const known = wholeIds.get(whole)
      if (known !== undefined) return known
      wholeIds.set(whole, wholeIds.size)
      return wholeIds.size - 1
    })
    const { offsets: wholeOffsets, members: wholeRows } = groupBy(wholeOf, wholeIds.size)
    const floors = Float64Array.from(subjects, ({ threshold }) => floorOf(threshold))
    return new WatchedNameIndex(
      subjects,
      subjectOffsets,
      subjectsOf,
      floors,
      floors.reduce((min, floor) => Math.min(min, floor), 1),
      Int32Array.from(subjects.keys()).filter((subject) => (floors[subject] as number) <= 0),
      Int32Array.from(rowName),
      Uint8Array.from(rowParts, (parts) => Math.min(parts.length, 255)),
      Int32Array.from(rowParts, initialsOf),
      PartVocabulary.build(rowParts).vocabulary,
      wholeOffsets,
      wholeRows,
      JaroWinklerIndex.build([...wholeIds.keys()], { acrossInitials: true }),
    )
  }

  get size(): number {
    return this.subjects.length
  }

  /** Every subject (its position in `subjects`) whose screening against one of `entries` may reach its threshold. */
  candidates(entries: Iterable<SanctionEntry>): Set<number> {
    const found = new Set<number>(this.always)
    // A name unchanged by a change is on both sides of it, and names repeat across entries: each form once.
    const searched = new Set<string>()
    for (const entry of entries)
      for (const { name, script } of listedNames(entry))
        for (const { prepared } of listedForms(name, script)) {
          const form = `${prepared.whole}\u0000${prepared.parts.join(' ')}`
          if (searched.has(form)) continue
          searched.add(form)
          this.addCandidates(prepared, found)
        }
    return found
  }

  /** The subjects a listed form may hit, added to `found`. */
  private addCandidates(listed: PreparedName, found: Set<number>): void {
    const skeleton = skeletonName(listed)
    const initials = initialsOf(listed.parts) | initialsOf(skeleton.parts)
    const visitRow = (row: number, similarity: number, byParts: boolean) => {
      const name = this.rowName[row] as number
      const parts = this.rowParts[row] as number
      const outside = ((this.rowInitials[row] as number) & ~initials) !== 0
      for (
        let k = this.subjectOffsets[name] as number;
        k < (this.subjectOffsets[name + 1] as number);
        k += 1
      ) {
        const subject = this.subjectsOf[k] as number
        const floor = this.floors[subject] as number
        if (similarity < floor) continue
        // A part of another initial scores 0: the mean cannot reach a floor that needs every part above 0.
        if (byParts && outside && everyPartFloor(parts, floor) > BOUND_SLACK) continue
        found.add(subject)
      }
    }
    for (const { parts, codes } of [listed, skeleton])
      parts.forEach((part, i) => {
        const { ids, similarities } = this.vocabulary.similarParts(
          part,
          codes[i] as string,
          this.minFloor,
          noTick,
        )
        ids.forEach((id, k) => {
          const similarity = similarities[k] as number
          if (similarity >= this.minFloor)
            this.vocabulary.forEachHolder(id, 0, false, (row) => visitRow(row, similarity, true))
        })
      })
    if (listed.whole === '') return
    this.wholes.forEachAtLeast(
      listed.whole,
      this.minFloor,
      false,
      (whole, similarity) => {
        for (let k = this.wholeOffsets[whole] as number; k < (this.wholeOffsets[whole + 1] as number); k += 1)
          visitRow(this.wholeRows[k] as number, similarity, false)
      },
      noTick,
    )
  }
}

/** The initials of `parts` as a mask (`initialBit`). */
function initialsOf(parts: readonly string[]): number {
  return parts.reduce((mask, part) => mask | initialBit(part.charCodeAt(0)), 0)
}

/** The positions of `keys` grouped by key (−1: none), flat, in position order within a key. */
function groupBy(keys: Int32Array, size: number): { offsets: Int32Array; members: Int32Array } {
  const holders: number[][] = Array.from({ length: size }, () => [])
  keys.forEach((key, position) => {
    if (key >= 0) holders[key]!.push(position)
  })
  const { postingOffsets, postings } = flattenPostings(holders)
  return { offsets: postingOffsets, members: postings }
}
