import { createReadStream } from 'node:fs'
import { parseUnXml } from '../src/datasets/load-un-xml'
import type { ListedName, SanctionEntry } from '../src/datasets/records'
import { SanctionsIndex } from '../src/screening/sanctions-index'

/** Per script of the original names: records tried and found as the top hit, each way. */
export interface ScriptRecall {
  script: string
  records: number
  /** Original-script name screened against a list of the Latin names only. */
  originalToLatin: number
  /** Latin primary name screened against a list of the original-script names only. */
  latinToOriginal: number
}

/** The entry with only `names` (the first one as its name), or undefined when none is left. */
function withNames(entry: SanctionEntry, names: ListedName[]): SanctionEntry | undefined {
  const [first, ...rest] = names
  if (!first) return undefined
  return { ...entry, name: first.name, aliases: rest.map((n) => n.name), names: [first, ...rest] }
}

/** The lowest score a top hit counts at: below it a name is not found, whatever comes first. */
export const RECALL_THRESHOLD = 50

/** Whether `index`'s best hit for `name` is entry `id`, scoring `RECALL_THRESHOLD` or more. */
function topHit(index: SanctionsIndex, name: string, id: string): boolean {
  return index.search({ name, threshold: RECALL_THRESHOLD, limit: 1 })[0]?.id === id
}

/**
 * How often each UN record with a `NAME_ORIGINAL_SCRIPT` is the top hit (`RECALL_THRESHOLD`), by the script of that name: its
 * original-script name screened against the list holding only the Latin names of every record, and its Latin
 * primary name against the list holding only the original-script names (issue 25's cross-script measure).
 */
export async function scriptRecall(file: string): Promise<ScriptRecall[]> {
  const { entries } = await parseUnXml(createReadStream(file), file)
  const names = (entry: SanctionEntry) => entry.names ?? []
  const latin = SanctionsIndex.build(
    entries.flatMap(
      (e) =>
        withNames(
          e,
          names(e).filter((n) => n.script === 'Latn'),
        ) ?? [],
    ),
  )
  const originals = entries.flatMap(
    (e) =>
      withNames(
        e,
        names(e).filter((n) => n.kind === 'original-script'),
      ) ?? [],
  )
  const original = SanctionsIndex.build(originals)
  const byScript = new Map<string, ScriptRecall>()
  for (const entry of originals) {
    const source = entries.find((e) => e.id === entry.id) as SanctionEntry
    const script = (entry.names?.[0] as ListedName).script
    const row = byScript.get(script) ?? { script, records: 0, originalToLatin: 0, latinToOriginal: 0 }
    row.records += 1
    if (topHit(latin, entry.name, entry.id)) row.originalToLatin += 1
    if (topHit(original, source.name, entry.id)) row.latinToOriginal += 1
    byScript.set(script, row)
  }
  return [...byScript.values()].sort((a, b) => b.records - a.records)
}
