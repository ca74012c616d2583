/**
 * Points a hit loses when the query's `birthYear` is more than one year away from every year of birth its
 * record lists. Fifteen takes an exact name (100) out of the block band (95+) and a near one (90) below the
 * default threshold (85): a different generation is strong evidence of a different person, yet a list's date
 * may be wrong, so the hit is lowered, not removed.
 */
export const BIRTH_YEAR_MISMATCH_POINTS = 15

/** How far a query's year may be from a listed one and still match (lists often hold approximate years). */
export const BIRTH_YEAR_TOLERANCE = 1

/** The years of birth a record's dates cover, as inclusive ranges: `1971` → [1971, 1971], `1973/1974`. */
export function birthYearRanges(dates: readonly string[] | undefined): [number, number][] {
  const ranges: [number, number][] = []
  for (const date of dates ?? []) {
    const match = /^(\d{4})(?:-\d{2}(?:-\d{2})?)?(?:\/(\d{4}))?$/.exec(date)
    if (!match) continue
    const from = Number(match[1])
    const to = match[2] ? Number(match[2]) : from
    ranges.push([Math.min(from, to), Math.max(from, to)])
  }
  return ranges
}

/**
 * What a record's years of birth take off a hit for a query's `birthYear`: 0 when the record lists none, or one
 * of its years (or ranges) is within `BIRTH_YEAR_TOLERANCE` of it; else `BIRTH_YEAR_MISMATCH_POINTS`.
 */
export function birthYearPenalty(year: number | undefined, ranges: readonly [number, number][]): number {
  if (year === undefined || ranges.length === 0) return 0
  const near = ranges.some(
    ([from, to]) => year >= from - BIRTH_YEAR_TOLERANCE && year <= to + BIRTH_YEAR_TOLERANCE,
  )
  return near ? 0 : BIRTH_YEAR_MISMATCH_POINTS
}
