import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@pf/service-kit'
import { locateReferenceData } from '@pf/testkit'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SanctionsIndex } from '../src/screening/sanctions-index'
import { diffListEntries } from '../src/watches/rescreen/list-change'
import { rescreenTouched, touchedParties } from '../src/watches/rescreen/rescreen-change'
import { WatchedNameIndex } from '../src/watches/rescreen/watched-name-index'
import { subjectQuery, type WatchedSubject } from '../src/watches/rescreen/watched-subject'
import { editedLists } from '../test/support-watch-rescreen'
import { memoryHeldMb, round } from './stats'
import { watchedNames } from './watch-subjects'

const SUBJECTS = Number(process.env.BENCH_RESCREEN_SUBJECTS ?? 1_000_000)
const CHANGED = 1000
/** Subjects screened in full to time the full re-screen, extrapolated to all. */
const FULL_SAMPLE = 20_000
const LISTS = ['ofac-sdn-2024', 'ofac-consolidated', 'un-consolidated', 'us-csl', 'opensanctions-ftm']

/** `count` subjects over 100 watches (threshold 85): customers' names by frequency, one in 50 a listed name. */
function generatedSubjects(count: number, listed: readonly string[]): WatchedSubject[] {
  return Array.from(watchedNames(count, listed), (name, i) => ({
    watchId: `watch-${i % 100}`,
    subjectId: `subject-${i}`,
    name,
    threshold: 85,
  }))
}

const seconds = (from: number) => round((performance.now() - from) / 1000, 2)

/**
 * Re-screening on list changes (issue 40): a million watched subjects indexed by name (`WatchedNameIndex`), a
 * change of 1,000 entries of the reference lists turned into each concerned subject's hits, and a full
 * re-screen of every subject against the lists (timed on a sample, extrapolated).
 */
export async function benchRescreen() {
  const logger = createLogger({ name: 'bench', level: 'silent' })
  const reference = locateReferenceData(__dirname)
  const lists = await SanctionsLists.load(
    LISTS.map((list) => join(reference, list)),
    { timeoutMs: 30_000, maxBytes: 256 * 1024 * 1024, logger },
  )
  const before = lists.current().index.entries
  const subjects = generatedSubjects(
    SUBJECTS,
    before.map(({ name }) => name),
  )
  const heldBefore = memoryHeldMb()
  let started = performance.now()
  const index = WatchedNameIndex.build(subjects)
  const buildSeconds = seconds(started)
  const indexMb = Math.round(memoryHeldMb() - heldBefore)

  const after = editedLists(before, subjects, CHANGED, 41)
  const load = loadavg()[0] as number
  const cpuBefore = process.cpuUsage()
  started = performance.now()
  const change = diffListEntries(before, after)
  const touched = touchedParties(change, { before, after })
  const rescreen = rescreenTouched(touched, index)
  const changeSeconds = seconds(started)
  const { user, system } = process.cpuUsage(cpuBefore)
  const changeCpuSeconds = round((user + system) / 1e6, 2)
  // What the process holds with the lists, the subjects and their index (the rescreen's own objects gone).
  const heldMb = Math.round(memoryHeldMb())
  const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024)
  const changed = change.added.length + change.changed.length + change.removed.length

  const full = SanctionsIndex.build(after)
  started = performance.now()
  let hits = 0
  for (const subject of subjects.slice(0, FULL_SAMPLE)) hits += full.search(subjectQuery(subject)).length
  const perSubjectMs = (performance.now() - started) / FULL_SAMPLE
  return [
    {
      benchmark: `watched-name index over ${SUBJECTS} subjects: build / memory held`,
      metric: 's / MB',
      value: `${buildSeconds} / ${indexMb}`,
      target: '',
    },
    {
      benchmark: `process with every list and ${SUBJECTS} subjects indexed: heap held / RSS`,
      metric: 'MB',
      value: `${heldMb} / ${rssMb}`,
      target: '',
    },
    {
      benchmark: `list change of ${changed} entries (${touched.before.length} / ${touched.after.length} entries of touched parties) → ${rescreen.subjects.length} subjects' hits (CPU ${changeCpuSeconds} s, load average ${round(load, 1)})`,
      metric: 's',
      value: changeSeconds,
      target: '≤ 10',
    },
    {
      benchmark: `full re-screen of ${SUBJECTS} subjects against ${after.length} entries (from ${FULL_SAMPLE}: ${hits} hits)`,
      metric: 's',
      value: round((perSubjectMs * SUBJECTS) / 1000, 1),
      target: '≤ 600',
    },
  ]
}
