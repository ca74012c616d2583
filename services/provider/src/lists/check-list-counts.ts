/** `SANCTIONS_MIN_SHARE`'s default: a refresh keeps at least half of each list's records. */
export const DEFAULT_MIN_SHARE = 0.5

/** The marker, before any format prefix, of a source whose lists may be empty at start. */
export const ALLOW_EMPTY = 'allow-empty:'

/** A `SANCTIONS_SOURCES` item without its `allow-empty:` marker, and whether it had one. */
export function splitAllowEmpty(source: string): { source: string; allowEmpty: boolean } {
  return source.startsWith(ALLOW_EMPTY)
    ? { source: source.slice(ALLOW_EMPTY.length), allowEmpty: true }
    : { source, allowEmpty: false }
}

/** A list a load refused for its count, as the log and `/api/lists` (`lastRefresh.refused`) show it. */
export interface ListRefusal {
  list: string
  /** Records its source parsed to (0 for a list a refresh no longer finds). */
  records: number
  /** Records of the list in use; absent when none is held (at start, or a list new at a refresh). */
  held?: number
  /** The rule it breaks. */
  rule: string
}

/** A list of a load, with whether its source carries `allow-empty:`. */
export interface CountedList {
  name: string
  source: string
  records: number
  allowEmpty: boolean
}

/**
 * What a load refuses, so that screening never fails open on a list cut short at its source:
 * - a list the provider holds (a refresh) whose source parsed to fewer than `minShare` of the records it holds
 *   (a list no longer found counts 0);
 * - a list none is held of (at start, or new at a refresh) that is empty, unless its source is marked
 *   `allow-empty:`.
 * A restart accepts a large shrink: it holds no previous count.
 */
export function checkListCounts(
  next: readonly CountedList[],
  held: ReadonlyMap<string, number>,
  minShare: number,
): ListRefusal[] {
  const refused: ListRefusal[] = []
  const found = new Map(next.map((list) => [list.name, list]))
  for (const [list, records] of held) {
    const now = found.get(list)?.records ?? 0
    if (now < minShare * records)
      refused.push({
        list,
        records: now,
        held: records,
        rule: `a refresh keeps at least SANCTIONS_MIN_SHARE (${minShare}) of the records held; a restart accepts a smaller list`,
      })
  }
  for (const { name, source, records, allowEmpty } of next)
    if (!held.has(name) && records === 0 && !allowEmpty)
      refused.push({
        list: name,
        records,
        rule: `an empty list is refused unless its source is marked allow-empty: (${ALLOW_EMPTY}${source})`,
      })
  return refused
}

/** A load refused for its lists' counts (`checkListCounts`): its message names each list, its counts and rule. */
export class ListCountError extends Error {
  constructor(readonly refusals: ListRefusal[]) {
    super(
      refusals
        .map(({ list, records, held, rule }) =>
          held === undefined
            ? `sanctions list ${list} is empty: ${rule}`
            : `sanctions list ${list} parsed to ${records} records, ${held} held: ${rule}`,
        )
        .join('; '),
    )
    this.name = 'ListCountError'
  }
}
