import { createReadStream } from 'node:fs'
import { readFtmExport } from '../src/datasets/load-ftm'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { parseUnXml } from '../src/datasets/load-un-xml'
import type { SanctionEntry } from '../src/datasets/records'
import { detectScript } from '../src/matching/detect-script'
import { entryKey } from '../src/watches/rescreen/list-change'
import { subjectHits, type SubjectHit } from '../src/watches/rescreen/subject-hit'
import { subjectQuery, type WatchedSubject } from '../src/watches/rescreen/watched-subject'
import { seededRandom } from '../scripts/sample-generator'
import { customerNames } from './support-customer-names'
import { referenceData } from './support-data'
import { SanctionsScan } from './support-sanctions-scan'

/**
 * Lists for the re-screen tests and bench, in list order: `ofac` entries of the 2024 SDN list and `un` of the UN
 * list (every one when omitted), the OpenSanctions fixture (parties on several lists: `sameAs`).
 */
export async function rescreenLists({ ofac, un: unCount }: { ofac?: number; un?: number } = {}): Promise<
  SanctionEntry[]
> {
  const sdn = loadOfacCsv(referenceData('ofac-sdn-2024')).map((entry) => ({ ...entry, list: 'ofac-sdn' }))
  const unFile = referenceData('un-consolidated', 'consolidated.xml')
  const un = (await parseUnXml(createReadStream(unFile), unFile)).entries
  const ftmFile = referenceData('opensanctions-ftm', 'entities.ftm.json')
  const ftm = await readFtmExport(createReadStream(ftmFile), ftmFile)
  return [
    ...sdn.slice(0, ofac ?? sdn.length),
    ...un.slice(0, unCount ?? un.length).map((entry) => ({ ...entry, list: 'un-sc-consolidated' })),
    ...[...ftm.values()].map((entry) => ({ ...entry, list: 'opensanctions' })),
  ]
}

const pick = <T>(items: readonly T[], random: () => number): T =>
  items[Math.floor(random() * items.length)] as T

/** A name with one letter changed (a misspelling a customer file holds). */
function misspelt(name: string, random: () => number): string {
  const at = Math.floor(random() * name.length)
  return /\p{L}/u.test(name[at] ?? '') ? `${name.slice(0, at)}E${name.slice(at + 1)}` : name
}

/**
 * `count` watched subjects over `watches` watches (thresholds 70 to 95, some restricted to a list or a kind of
 * party): customers' names by frequency (`customerNames`), and one in `fromLists` a listed name (as listed or
 * misspelt) so that there are hits; some with a birth year.
 */
export function watchedSubjects(
  count: number,
  entries: readonly SanctionEntry[],
  { seed = 7, fromLists = 4, watches = 4 }: { seed?: number; fromLists?: number; watches?: number } = {},
): WatchedSubject[] {
  const random = seededRandom(seed)
  const customers = customerNames(Math.ceil(count / 6), seed)
  const settings = Array.from({ length: watches }, (_, w) => ({
    watchId: `watch-${w}`,
    threshold: [85, 70, 90, 80, 95][w % 5] as number,
    lists: w % 4 === 3 ? ['un-sc-consolidated', 'opensanctions'] : null,
    entityType: w % 5 === 4 ? 'person' : null,
  }))
  return Array.from({ length: count }, (_, i) => {
    const watch = settings[i % watches]!
    const listed = i % fromLists === 0 ? pick(entries, random) : undefined
    const name = listed
      ? misspeltOr(pick([listed.name, ...listed.aliases], random), random)
      : (customers[i % customers.length] as { name: string }).name
    return {
      watchId: watch.watchId,
      subjectId: `subject-${i}`,
      name,
      threshold: watch.threshold,
      lists: watch.lists,
      entityType: watch.entityType,
      ...(random() < 0.2 ? { birthYear: 1940 + Math.floor(random() * 60) } : {}),
    }
  })
}

const misspeltOr = (name: string, random: () => number) => (random() < 0.5 ? misspelt(name, random) : name)

/**
 * A release of `entries` with `count` random edits: entries added (a subject's name, so it is a hit, or another
 * entry's name misspelt), removed, renamed, an alias added or dropped, a date of birth changed.
 */
export function editedLists(
  entries: readonly SanctionEntry[],
  subjects: readonly WatchedSubject[],
  count: number,
  seed: number,
): SanctionEntry[] {
  const random = seededRandom(seed)
  const edited: (SanctionEntry | null)[] = entries.map((entry) => ({ ...entry }))
  const added: SanctionEntry[] = []
  const setNames = (entry: SanctionEntry, name: string, aliases: string[]) => {
    const kinds = entry.names
    entry.name = name
    entry.aliases = aliases
    if (kinds)
      entry.names = [name, ...aliases].map((each, k) => ({
        ...(kinds[k] ?? { kind: k === 0 ? ('primary' as const) : ('alias' as const) }),
        name: each,
        script: detectScript(each),
      }))
  }
  for (let n = 0; n < count; n += 1) {
    const at = Math.floor(random() * edited.length)
    const entry = edited[at]
    const kind = Math.floor(random() * 6)
    if (kind === 0 || !entry) {
      const source = pick(entries, random)
      const name = random() < 0.5 ? pick(subjects, random).name : misspelt(source.name, random)
      added.push({ ...source, id: `added-${seed}-${n}`, name, aliases: [], names: undefined, sameAs: [] })
    } else if (kind === 1) edited[at] = null
    else if (kind === 2)
      setNames(
        entry,
        random() < 0.5 ? pick(subjects, random).name : misspelt(entry.name, random),
        entry.aliases,
      )
    else if (kind === 3) setNames(entry, entry.name, [...entry.aliases, pick(subjects, random).name])
    else if (kind === 4) setNames(entry, entry.name, entry.aliases.slice(1))
    else entry.birthDates = [String(1940 + Math.floor(random() * 60))]
  }
  return [...edited.filter((entry): entry is SanctionEntry => entry !== null), ...added]
}

/** Every subject's hits by the reference full scan (`SanctionsScan`), no cap: the brute force. */
export function fullRescreen(
  entries: readonly SanctionEntry[],
  subjects: readonly WatchedSubject[],
): Map<string, SubjectHit[]> {
  const scan = SanctionsScan.build(entries)
  const byKey = new Map(entries.map((entry) => [entryKey(entry), entry]))
  return new Map(
    subjects.map((subject) => [
      `${subject.watchId}/${subject.subjectId}`,
      subjectHits(scan.search(subjectQuery(subject)), (key) => byKey.get(key)),
    ]),
  )
}
