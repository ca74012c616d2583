import { MAX_SEARCH_NAME_LENGTH } from '@pf/schemas'
import type { SanctionEntry } from '../datasets/records'
import type { SanctionsList } from './sanctions-list'

/**
 * `SANCTIONS_MAX_NAME_LENGTH`'s default, in UTF-16 code units: the longest names of the real lists in
 * `data/reference` are 324 (UN, one record's names run together), 165 (OFAC SDN 2024), 158 (SDN 2021), 140 (OFAC
 * consolidated), 136 (the CSL extract) and 62 (the OpenSanctions fixtures); three times the longest.
 */
export const DEFAULT_MAX_NAME_LENGTH = 1000
/** The least limit: a listed name is never cut shorter than the longest query (`MAX_SEARCH_NAME_LENGTH`). */
export const MIN_NAME_LENGTH = MAX_SEARCH_NAME_LENGTH

const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0

/**
 * `name` cut to at most `max` code units: before the last white space within them and the word it ends, else
 * (a word longer than half of them) at `max`, never between the two halves of a surrogate pair.
 *
 * @example
 * cutName('BANK OF EXAMPLE', 10) // 'BANK OF'
 */
export function cutName(name: string, max: number): string {
  if (name.length <= max) return name
  for (let at = max; at > max / 2; at -= 1)
    if (isSpace(name.charCodeAt(at))) return name.slice(0, at).trimEnd()
  const code = name.charCodeAt(max - 1)
  return name.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)
}

/** `entry` with every name past `max` cut (`cutName`), and how many were; the entry itself when none is. */
function cutEntry(entry: SanctionEntry, max: number): { entry: SanctionEntry; cut: number } {
  const cut = [entry.name, ...entry.aliases].filter((name) => name.length > max).length
  if (cut === 0) return { entry, cut }
  const names = entry.names?.map((listed) =>
    listed.name.length > max ? { ...listed, name: cutName(listed.name, max) } : listed,
  )
  const copy: SanctionEntry = {
    ...entry,
    name: cutName(entry.name, max),
    aliases: entry.aliases.map((alias) => cutName(alias, max)),
    ...(names ? { names } : {}),
  }
  return { entry: copy, cut }
}

/**
 * A list whose names are at most `max` long: each longer name is cut (`cutName`), never left out, so its entry
 * stays screenable, and `namesCut` says how many were; `longest` is the longest name as listed. The search
 * index's tables and a query's work grow with the longest name indexed: a 200 000-character name once cost
 * every new query shape 60 ms and the index 900 MB of cached tables. Entries are copied, never changed (an
 * OpenSanctions list keeps its entries between refreshes).
 */
export function cutLongNames(list: SanctionsList, max: number): { list: SanctionsList; longest: number } {
  let namesCut = 0
  let longest = 0
  const entries = list.entries.map((entry) => {
    for (const name of [entry.name, ...entry.aliases]) longest = Math.max(longest, name.length)
    const { entry: kept, cut } = cutEntry(entry, max)
    namesCut += cut
    return kept
  })
  return { list: namesCut === 0 ? list : { ...list, entries, namesCut }, longest }
}
