import { listedNames } from '../../datasets/listed-names'
import type { SanctionEntry } from '../../datasets/records'
import { skeletonName } from '../../matching/consonant-skeleton'
import { evidencePoints, evidencePointsWithoutShort, nameEvidence } from '../../matching/name-evidence'
import { formsMeet, listedForms, queryForms, type ListedForm } from '../../matching/name-forms'
import { partSimilarity } from '../../matching/name-score'
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

/** A row's query form, as bits (`QueryForm`'s flags). */
const TRANSLITERATED = 1
const SKELETAL = 2
const ABJAD_ONLY = 4
const KOREAN = 8
/**
 * The row's name has words of one or two letters (`PreparedName.short`), which the index does not hold: they
 * count among the query's words, so without them only the rules they cannot make lighter are taken off
 * (`evidencePointsWithoutShort`).
 */
const HAS_SHORT = 16

/**
 * The watched subjects' names, indexed to answer the re-screen's question the other way round: which subjects
 * may a listed entry hit? Screening a subject (the query) scores each listed name by the larger of two terms
 * (`scoreName`), and a hit needs that score at its watch's threshold before any rule lowers it, so one of them
 * reaches the floor:
 * - the parts' mean: then one of the subject's parts has a similarity at the floor with a listed part; the
 *   subjects' distinct parts are a `PartVocabulary` searched with each listed part (Jaro-Winkler is symmetric,
 *   `partSimilarity` never above it);
 * - the whole name: a `JaroWinklerIndex` over the subjects' whole names, searched with the listed whole.
 * Consonant-skeleton forms are searched with the listed name's skeletons, as screening compares them. Each query
 * form so found (a row) is then scored against the listed form that found it alone, as `scoreForm` scores the
 * pair (a common part finds most names; few of them score near the threshold), and a subject is a candidate
 * when one of its name's forms reaches its floor: every subject that may hit, and few others. The re-screen
 * screens those exactly (`rescreenChange`).
 */
export class WatchedNameIndex {
  /** A stamp per row: the rows already found for the listed form in hand. */
  private readonly rowSeen: Int32Array
  private generation = 0

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
    /** The distinct name of each row (a query form of a name, `queryForms`), its flags and whole (−1: none). */
    private readonly rowName: Int32Array,
    private readonly rowFlags: Uint8Array,
    private readonly rowWhole: Int32Array,
    /**
     * The rows holding each vocabulary part, `holderRows[holderOffsets[id] .. holderOffsets[id + 1])`, with each
     * row's initials beside it (`initialBit`; 0 where a part may score 0 and its row still reach the lowest floor),
     * read in order where a row's own would be a cache miss each.
     */
    private readonly holderOffsets: Int32Array,
    private readonly holderRows: Int32Array,
    private readonly holderInitials: Int32Array,
    /** Each row's parts as vocabulary ids: `rowPartIds[rowPartOffsets[r] .. rowPartOffsets[r + 1])`. */
    private readonly rowPartOffsets: Int32Array,
    private readonly rowPartIds: Int32Array,
    private readonly vocabulary: PartVocabulary,
    /** The rows of each distinct whole: `wholeRows[wholeOffsets[w] .. wholeOffsets[w + 1])`. */
    private readonly wholeOffsets: Int32Array,
    private readonly wholeRows: Int32Array,
    private readonly wholes: JaroWinklerIndex,
  ) {
    this.rowSeen = new Int32Array(rowName.length)
  }

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
    const rowFlags: number[] = []
    const rowParts: string[][] = []
    const rowWholes: string[] = []
    for (const [name, id] of nameIds) {
      for (const { prepared, transliterated, skeletal, abjadOnly, korean } of queryForms(name)) {
        rowName.push(id)
        rowFlags.push(
          (transliterated ? TRANSLITERATED : 0) |
            (skeletal ? SKELETAL : 0) |
            (abjadOnly ? ABJAD_ONLY : 0) |
            (korean ? KOREAN : 0) |
            (prepared.short?.length ? HAS_SHORT : 0),
        )
        rowParts.push(prepared.parts)
        rowWholes.push(prepared.whole)
      }
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
    const { vocabulary, partOffsets, partIds } = PartVocabulary.build(rowParts)
    const minFloor = floors.reduce((min, floor) => Math.min(min, floor), 1)
    // A part of another initial than every listed part's scores 0: where every part must score above 0, a
    // row with one is reached by its whole only.
    const rowInitials = Int32Array.from(rowParts, (parts) =>
      everyPartFloor(parts.length, minFloor) > BOUND_SLACK ? initialsOf(parts) : 0,
    )
    const { offsets: holderOffsets, members: holderRows } = holdersOf(partOffsets, partIds, vocabulary.size)
    return new WatchedNameIndex(
      subjects,
      subjectOffsets,
      subjectsOf,
      floors,
      minFloor,
      Int32Array.from(subjects.keys()).filter((subject) => (floors[subject] as number) <= 0),
      Int32Array.from(rowName),
      Uint8Array.from(rowFlags),
      wholeOf,
      holderOffsets,
      holderRows,
      holderRows.map((row) => rowInitials[row] as number),
      partOffsets,
      partIds,
      vocabulary,
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
    return this.candidatesOf([entries])[0] as Set<number>
  }

  /**
   * `candidates` of each of several sets of entries (a change's before and after), each listed form searched
   * once however many of them hold it (a touched party's unchanged entries are on both sides).
   */
  candidatesOf(sides: readonly Iterable<SanctionEntry>[]): Set<number>[] {
    // Each distinct listed form, with the sides holding it (bits).
    const forms = new Map<string, { form: ListedForm; sides: number }>()
    sides.forEach((entries, side) => {
      for (const entry of entries)
        for (const { name, script } of listedNames(entry))
          for (const form of listedForms(name, script)) {
            const { prepared } = form
            const key = `${prepared.whole}\u0000${prepared.parts.join(' ')}\u0000${form.transliterated}${form.abjad}${form.korean}`
            const known = forms.get(key)
            if (known) known.sides |= 1 << side
            else forms.set(key, { form, sides: 1 << side })
          }
    })
    // The best score of each distinct name over each side's listed forms, before the rules of an entry.
    const bests = sides.map(() => new Map<number, number>())
    const best = new Map<number, number>()
    for (const { form, sides: held } of forms.values()) {
      best.clear()
      this.scoreFound(form, best)
      bests.forEach((sideBest, side) => {
        if ((held & (1 << side)) === 0) return
        for (const [name, score] of best)
          if (score > (sideBest.get(name) ?? -Infinity)) sideBest.set(name, score)
      })
    }
    return bests.map((sideBest) => {
      const found = new Set<number>(this.always)
      for (const [name, score] of sideBest)
        for (
          let k = this.subjectOffsets[name] as number;
          k < (this.subjectOffsets[name + 1] as number);
          k += 1
        ) {
          const subject = this.subjectsOf[k] as number
          // A point of slack: the pair's score is computed here, not by the index that screens it.
          if (score >= (this.subjects[subject] as WatchedSubject).threshold - 1) found.add(subject)
        }
      return found
    })
  }

  /**
   * The rows a listed form may reach (a part or the whole at the lowest floor), each scored against it as
   * screening scores the pair before an entry's rules (its alias kind, birth years) lower it: the name score
   * less the points of the precision rules (`evidencePoints`), the best per name kept in `best`.
   */
  private scoreFound(listed: ListedForm, best: Map<number, number>): void {
    const generation = (this.generation = (this.generation + 1) | 0)
    const seen = this.rowSeen
    const rows: number[] = []
    const mark = (row: number) => {
      if (seen[row] === generation) return
      seen[row] = generation
      rows.push(row)
    }
    const skeleton = skeletonName(listed.prepared)
    const outside = ~(initialsOf(listed.prepared.parts) | initialsOf(skeleton.parts))
    for (const { parts, codes } of [listed.prepared, skeleton])
      parts.forEach((part, i) => {
        const { ids, similarities } = this.vocabulary.similarParts(
          part,
          codes[i] as string,
          this.minFloor,
          noTick,
        )
        ids.forEach((id, k) => {
          if ((similarities[k] as number) < this.minFloor) return
          const to = this.holderOffsets[id + 1] as number
          for (let h = this.holderOffsets[id] as number; h < to; h += 1)
            if (((this.holderInitials[h] as number) & outside) === 0) mark(this.holderRows[h] as number)
        })
      })
    // The wholes reaching the lowest floor, with their similarity; any other stays below every floor.
    const wholeFound = new Map<number, number>()
    if (listed.prepared.whole !== '')
      this.wholes.forEachAtLeast(
        listed.prepared.whole,
        this.minFloor,
        false,
        (whole, similarity) => {
          wholeFound.set(whole, similarity)
          for (
            let k = this.wholeOffsets[whole] as number;
            k < (this.wholeOffsets[whole + 1] as number);
            k += 1
          )
            mark(this.wholeRows[k] as number)
        },
        noTick,
      )
    // Each vocabulary part's best similarity against the listed parts (or skeleton parts: odd keys).
    const partBest = new Map<number, number>()
    for (const row of rows) {
      const flags = this.rowFlags[row] as number
      const skeletal = (flags & SKELETAL) !== 0
      const meet = formsMeet(
        {
          transliterated: (flags & TRANSLITERATED) !== 0,
          skeletal,
          abjadOnly: (flags & ABJAD_ONLY) !== 0,
          korean: (flags & KOREAN) !== 0,
          prepared: listed.prepared,
        },
        listed,
      )
      if (!meet) continue
      const similarity = this.scoreRow(
        row,
        skeletal ? skeleton : listed.prepared,
        skeletal,
        partBest,
        wholeFound,
      )
      if (similarity < this.minFloor) continue
      const name = this.rowName[row] as number
      const query = this.rowPrepared(row)
      const evidence = nameEvidence(query, skeletal ? skeleton : listed.prepared, skeletal)
      const points =
        (flags & HAS_SHORT) !== 0 ? evidencePointsWithoutShort(evidence) : evidencePoints(evidence)
      const score = Math.round(100 * similarity) - points
      if (score > (best.get(name) ?? -Infinity)) best.set(name, score)
    }
  }

  /**
   * Row `row`'s query form as the precision rules read it, without its short words (`short`): a row that has
   * some is scored with `evidencePointsWithoutShort`, so the score stays at or above the screening's.
   */
  private rowPrepared(row: number): PreparedName {
    const ids = this.rowPartIds.subarray(this.rowPartOffsets[row], this.rowPartOffsets[row + 1])
    return {
      whole: '',
      parts: Array.from(ids, (id) => this.vocabulary.parts[id] as string),
      codes: Array.from(ids, (id) => this.vocabulary.codes[id] as string),
    }
  }

  /** `scoreName` of row `row` against `compared` (before rounding), from the similarities found or computed. */
  private scoreRow(
    row: number,
    compared: PreparedName,
    skeletal: boolean,
    partBest: Map<number, number>,
    wholeFound: Map<number, number>,
  ): number {
    const from = this.rowPartOffsets[row] as number
    const to = this.rowPartOffsets[row + 1] as number
    if (from === to || compared.parts.length === 0) return 0
    let sum = 0
    for (let k = from; k < to; k += 1) {
      const id = this.rowPartIds[k] as number
      const key = id * 2 + (skeletal ? 1 : 0)
      let similarity = partBest.get(key)
      if (similarity === undefined) {
        const part = this.vocabulary.parts[id] as string
        const code = this.vocabulary.codes[id] as string
        similarity = 0
        for (let j = 0; j < compared.parts.length && similarity < 1; j += 1) {
          const value = partSimilarity(part, compared.parts[j] as string, code === compared.codes[j])
          if (value > similarity) similarity = value
        }
        partBest.set(key, similarity)
      }
      sum += similarity
    }
    const mean = sum / (to - from)
    const whole = this.rowWhole[row] as number
    if (mean >= 1 || whole < 0 || compared.whole === '') return mean
    return Math.max(mean, wholeFound.get(whole) ?? 0)
  }
}

/** The initials of `parts` as a mask (`initialBit`). */
function initialsOf(parts: readonly string[]): number {
  return parts.reduce((mask, part) => mask | initialBit(part.charCodeAt(0)), 0)
}

/** The rows holding each vocabulary part (rows' parts `partIds[partOffsets[r] .. partOffsets[r + 1])`), each once. */
function holdersOf(
  partOffsets: Int32Array,
  partIds: Int32Array,
  size: number,
): { offsets: Int32Array; members: Int32Array } {
  const holders: number[][] = Array.from({ length: size }, () => [])
  for (let row = 0; row + 1 < partOffsets.length; row += 1) {
    const from = partOffsets[row] as number
    for (let k = from; k < (partOffsets[row + 1] as number); k += 1) {
      const id = partIds[k] as number
      // A part twice in a name holds it once.
      if (!partIds.subarray(from, k).includes(id)) holders[id]!.push(row)
    }
  }
  const { postingOffsets, postings } = flattenPostings(holders)
  return { offsets: postingOffsets, members: postings }
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
