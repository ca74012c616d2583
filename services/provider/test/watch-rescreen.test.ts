import type { SanctionEntry } from '../src/datasets/records'
import { diffListEntries } from '../src/watches/rescreen/list-change'
import { nextHits, rescreenChange } from '../src/watches/rescreen/rescreen-change'
import type { SubjectHit } from '../src/watches/rescreen/subject-hit'
import { WatchedNameIndex } from '../src/watches/rescreen/watched-name-index'
import type { WatchedSubject } from '../src/watches/rescreen/watched-subject'
import { editedLists, fullRescreen, rescreenLists, watchedSubjects } from './support-watch-rescreen'

const key = (subject: WatchedSubject) => `${subject.watchId}/${subject.subjectId}`
const comparable = (hits: readonly SubjectHit[]) => [...hits].sort((x, y) => x.hitKey.localeCompare(y.hitKey))

describe('re-screening on a list change', () => {
  let lists: SanctionEntry[]
  let subjects: WatchedSubject[]
  let index: WatchedNameIndex

  beforeAll(async () => {
    lists = await rescreenLists({ ofac: 120, un: 100 })
    subjects = watchedSubjects(1000, lists)
    index = WatchedNameIndex.build(subjects)
  })

  test('diffListEntries tells added, changed (entry hash) and removed entries apart by list and id', () => {
    const [first, second, third] = lists as [SanctionEntry, SanctionEntry, SanctionEntry]
    const after = [
      { ...first, remarks: 'reworded' },
      { ...second, birthDates: ['1961'] },
      { ...third, id: 'new-id' },
    ]
    const change = diffListEntries([first, second, third], after)
    expect(change.changed.map(({ after }) => after.id)).toEqual([second.id])
    expect(change.added.map(({ id }) => id)).toEqual(['new-id'])
    expect(change.removed.map(({ id }) => id)).toEqual([third.id])
  })

  test('after random list edits, the incremental re-screen equals a full re-screen by the reference scan', () => {
    let current = fullRescreen(lists, subjects)
    let before = lists
    let changedSubjects = 0
    let hits = 0
    for (const seed of [11, 12]) {
      const after = editedLists(before, subjects, 50, seed)
      const rescreen = rescreenChange(diffListEntries(before, after), { before, after }, index)
      const incremental = new Map(current)
      for (const { subject, after: found } of rescreen.subjects)
        incremental.set(key(subject), nextHits(current.get(key(subject)) ?? [], rescreen.replacedKeys, found))
      const brute = fullRescreen(after, subjects)
      for (const subject of subjects)
        expect([key(subject), comparable(incremental.get(key(subject)) ?? [])]).toEqual([
          key(subject),
          comparable(brute.get(key(subject)) ?? []),
        ])
      changedSubjects += rescreen.subjects.length
      hits += [...brute.values()].reduce((sum, found) => sum + found.length, 0)
      current = brute
      before = after
    }
    // The edits reach subjects, and subjects hit: the comparison is not between empty sets.
    expect(changedSubjects).toBeGreaterThan(25)
    expect(hits).toBeGreaterThan(250)
  })
})
