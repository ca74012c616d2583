import type { SanctionEntry } from '../../datasets/records'
import { EntryGroups } from '../../screening/entry-groups'
import { SanctionsIndex } from '../../screening/sanctions-index'
import { entryKey, type ListChange } from './list-change'
import { subjectHits, type SubjectHit } from './subject-hit'
import type { WatchedNameIndex } from './watched-name-index'
import { subjectQuery, type WatchedSubject } from './watched-subject'

/** One subject a list change may concern: its hits on the parties the change touched, before and after it. */
export interface SubjectRescreen {
  subject: WatchedSubject
  before: SubjectHit[]
  after: SubjectHit[]
}

/** What a list change does to the watched subjects (`rescreenChange`). */
export interface ChangeRescreen {
  /**
   * The keys of every entry of a party the change touched, before it: a subject's hits with these keys are
   * replaced by `after` (`nextHits`); its other hits stay as they are.
   */
  replacedKeys: ReadonlySet<string>
  /** The subjects with a hit on a touched party before or after the change, in `index.subjects` order. */
  subjects: SubjectRescreen[]
}

/**
 * The subjects a list change concerns, and their hits on what it touched, exactly as screening each subject
 * against the whole lists before and after would give them. The parties touched are those of an added,
 * changed or removed entry, on either side (a party is scored over all its entries, so its unchanged entries
 * are re-scored with it); the subjects are those `index` finds for any of their entries, then screened by
 * `SanctionsIndex` over those parties' entries alone, in list order, which answers what the whole lists would
 * for them (a party's hit depends on its own entries only).
 */
export function rescreenChange(
  change: ListChange,
  lists: { before: readonly SanctionEntry[]; after: readonly SanctionEntry[] },
  index: WatchedNameIndex,
): ChangeRescreen {
  return rescreenTouched(touchedParties(change, lists), index)
}

/** The entries of every party a change touched, before and after it, in list order: all a re-screen needs. */
export interface TouchedParties {
  before: SanctionEntry[]
  after: SanctionEntry[]
}

/** The parties `change` touched in `lists` (what `watch_list_changes` keeps of a change). */
export function touchedParties(
  change: ListChange,
  lists: { before: readonly SanctionEntry[]; after: readonly SanctionEntry[] },
): TouchedParties {
  const removed = new Set([...change.removed, ...change.changed.map(({ before }) => before)].map(entryKey))
  const added = new Set([...change.added, ...change.changed.map(({ after }) => after)].map(entryKey))
  return { before: partiesHolding(lists.before, removed), after: partiesHolding(lists.after, added) }
}

/**
 * `rescreenChange` from the parties the change touched. A subject is screened on the side (before, after) whose
 * entries may reach it, once per distinct query (subjects of one name in one watch screen alike).
 */
export function rescreenTouched({ before, after }: TouchedParties, index: WatchedNameIndex): ChangeRescreen {
  const [candidatesBefore, candidatesAfter] = index.candidatesOf([before, after]) as [
    Set<number>,
    Set<number>,
  ]
  const screenBefore = screener(before)
  const screenAfter = screener(after)
  const subjects: SubjectRescreen[] = []
  const positions = [...new Set([...candidatesBefore, ...candidatesAfter])].sort((x, y) => x - y)
  for (const position of positions) {
    const subject = index.subjects[position] as WatchedSubject
    const rescreen = {
      subject,
      before: candidatesBefore.has(position) ? screenBefore(subject) : [],
      after: candidatesAfter.has(position) ? screenAfter(subject) : [],
    }
    if (rescreen.before.length > 0 || rescreen.after.length > 0) subjects.push(rescreen)
  }
  return { replacedKeys: new Set(before.map(entryKey)), subjects }
}

/** A subject's hits after a change: its `current` hits, those on a touched party replaced by `after`. */
export function nextHits(
  current: readonly SubjectHit[],
  replacedKeys: ReadonlySet<string>,
  after: readonly SubjectHit[],
): SubjectHit[] {
  return [...current.filter(({ hitKey }) => !replacedKeys.has(hitKey)), ...after]
}

/** Every entry of a party holding one of `keys`, in list order. */
function partiesHolding(entries: readonly SanctionEntry[], keys: ReadonlySet<string>): SanctionEntry[] {
  const groups = EntryGroups.build(entries)
  const touched = new Set<number>()
  entries.forEach((entry, i) => {
    if (keys.has(entryKey(entry))) for (const member of groups.members(i)) touched.add(member)
  })
  return [...touched].sort((x, y) => x - y).map((i) => entries[i] as SanctionEntry)
}

/** Screens a subject against `entries` only, as `SubjectHit`s; a query screened before answers as it did. */
function screener(entries: readonly SanctionEntry[]): (subject: WatchedSubject) => SubjectHit[] {
  if (entries.length === 0) return () => []
  const index = SanctionsIndex.build(entries)
  const byKey = new Map(entries.map((entry) => [entryKey(entry), entry]))
  const answers = new Map<string, SubjectHit[]>()
  return (subject) => {
    const query = subjectQuery(subject)
    const key = JSON.stringify([
      query.name,
      query.threshold,
      query.country,
      query.birthYear,
      query.entityType,
      subject.lists ?? null,
    ])
    let hits = answers.get(key)
    if (hits === undefined) {
      hits = subjectHits(index.search(query), (entryKey) => byKey.get(entryKey))
      answers.set(key, hits)
    }
    return [...hits]
  }
}
