import { createHash } from 'node:crypto'
import { listedNames } from '../datasets/listed-names'
import type { SanctionEntry } from '../datasets/records'

/**
 * A hash over what decides a match of one list entry: its names with their kinds (a weak alias scores lower, so
 * a weak alias made a plain one changes what the entry matches), type, dates of birth, countries, nationalities
 * and programs; not its remarks or its source file, so rewording a remark never re-raises a silenced hit (issue
 * 40: "the entry changes" means this hash changes). Lists are compared as sets: a list that reorders an entry's
 * aliases has not changed it.
 */
export function entryHash(entry: SanctionEntry): string {
  const decisive = {
    name: entry.name,
    names: sortedSet(listedNames(entry).map(({ name, kind }) => `${kind}:${name}`)),
    type: entry.type,
    birthDates: sortedSet(entry.birthDates ?? []),
    countries: sortedSet(entry.countries),
    nationalities: sortedSet(entry.nationalities ?? []),
    programs: sortedSet(entry.programs),
  }
  return createHash('sha256').update(JSON.stringify(decisive)).digest('hex').slice(0, 32)
}

/** The hash of one party found on several lists (one hit): its entries' hashes, in any order. */
export function partyHash(entries: readonly SanctionEntry[]): string {
  const [only] = entries
  if (entries.length === 1 && only) return entryHash(only)
  const hashes = entries.map(entryHash).sort()
  return createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 32)
}

function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort()
}
