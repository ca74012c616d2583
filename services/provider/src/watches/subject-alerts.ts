import { entryKey, type WatchHit } from './screen-subject'

export type AlertKind = 'new' | 'changed' | 'removed'

/** A hit as `watch_hits` keeps it. */
export interface StoredHit {
  hit_key: string
  entry_hash: string
  hit: { lists?: { name: string; id: string }[] }
}

/** The entry hashes a `false_positive` in force silences, by `list:entryId`. */
export type Silencing = Map<string, Set<string>>

/** A `false_positive` decision in force (the newest for its `list:entryId`), with the hash it was decided on. */
export interface FalsePositive {
  list: string
  entry_id: string
  entry_hash: string
}

export function silencingOf(rows: readonly FalsePositive[]): Silencing {
  const silencing: Silencing = new Map()
  for (const row of rows) silencing.set(entryKey(row.list, row.entry_id), new Set([row.entry_hash]))
  return silencing
}

/** The hit as alerts and `watch_hits` keep it: the screening hit with its key and entry hash. */
export function alertHit({ hitKey, entryHash, hit }: WatchHit) {
  return { ...hit, hitKey, entryHash }
}

/**
 * The alerts one subject's new hits raise against its stored ones: `new` for a hit only now, `removed` for one
 * only before, `changed` for the same `hit_key` with another `entry_hash`; a party whose `list:entryId` has a
 * `false_positive` on its current `entry_hash` raises none.
 */
export function subjectAlerts(
  before: readonly StoredHit[],
  silencing: Silencing,
  hits: readonly WatchHit[],
): { kind: AlertKind; hit: unknown }[] {
  const silenced = (lists: readonly { name: string; id: string }[] | undefined, hash: string) =>
    (lists ?? []).some(({ name, id }) => silencing.get(entryKey(name, id))?.has(hash))
  const old = new Map(before.map((row) => [row.hit_key, row]))
  const alerts: { kind: AlertKind; hit: unknown }[] = []
  for (const now of hits) {
    const was = old.get(now.hitKey)
    old.delete(now.hitKey)
    if (was && was.entry_hash === now.entryHash) continue
    if (silenced(now.hit.lists, now.entryHash)) continue
    alerts.push({ kind: was ? 'changed' : 'new', hit: alertHit(now) })
  }
  for (const gone of old.values())
    if (!silenced(gone.hit.lists, gone.entry_hash)) alerts.push({ kind: 'removed', hit: gone.hit })
  return alerts
}
