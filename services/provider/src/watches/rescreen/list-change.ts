import { listedNames } from '../../datasets/listed-names'
import type { SanctionEntry } from '../../datasets/records'
import { entryHash } from '../entry-hash'

/**
 * What a list refresh or an OpenSanctions delta changed, entry by entry (`diffListEntries`). An entry is known
 * across releases by its list and id (`entryKey`); how stable each format's id is:
 * - `ofac-csv`: `ent_num`, OFAC's own number, kept for the life of an entry: stable.
 * - `un-xml`: `REFERENCE_NUMBER` (QDi.123), the Council's own: stable.
 * - `ftm`: the OpenSanctions entity id (deltas address entities by it): stable.
 * - `jsonl`: the file's `id` when given: stable as the writer keeps it; `<file>:<line>` otherwise, not stable.
 * - `us-csl`: the export's `_id` (stable), else `entity_number` (stable for Treasury rows), else
 *   `<file>:<line>`, which moves when a row is added above it.
 * - `bis-dpl`: `<file>:<line>` only (the list has no id): not stable. A moved row reads as a change of both
 *   lines; the re-screen stays exact (both are re-screened), only a decision on the line's party is then on
 *   another party's line.
 */
export interface ListChange {
  added: SanctionEntry[]
  /**
   * Entries whose `entryHash` differs, or what else decides their hits: their party (`sameAs`: they may join or
   * leave one) or their names' kinds (a weak alias scores 10 points less).
   */
  changed: { before: SanctionEntry; after: SanctionEntry }[]
  removed: SanctionEntry[]
}

/** An entry's identity across releases: its list and its id there. */
export function entryKey(entry: Pick<SanctionEntry, 'list' | 'id'>): string {
  return `${entry.list ?? ''}:${entry.id}`
}

/**
 * The added, changed and removed entries between two releases of the lists (every list the provider screens,
 * or one list: entries are matched by `entryKey`). Where one key names several entries of a release, they are
 * told apart by their order (`key#2`, …), so none is lost from the diff.
 */
export function diffListEntries(
  before: readonly SanctionEntry[],
  after: readonly SanctionEntry[],
): ListChange {
  const old = byKey(before)
  const change: ListChange = { added: [], changed: [], removed: [] }
  for (const [key, entry] of byKey(after)) {
    const previous = old.get(key)
    if (!previous) change.added.push(entry)
    else if (decides(previous) !== decides(entry)) change.changed.push({ before: previous, after: entry })
    old.delete(key)
  }
  change.removed.push(...old.values())
  return change
}

/** What of an entry decides its hits: its `entryHash`, the party it belongs to and its names' kinds. */
function decides(entry: SanctionEntry): string {
  const party = [...new Set(entry.sameAs ?? [])].sort()
  const kinds = listedNames(entry)
    .map((name) => JSON.stringify(name))
    .sort()
  return JSON.stringify([entryHash(entry), party, kinds])
}

function byKey(entries: readonly SanctionEntry[]): Map<string, SanctionEntry> {
  const keyed = new Map<string, SanctionEntry>()
  for (const entry of entries) {
    let key = entryKey(entry)
    for (let n = 2; keyed.has(key); n += 1) key = `${entryKey(entry)}#${n}`
    keyed.set(key, entry)
  }
  return keyed
}
