import { minJaroWinklerMatches } from './jaro-winkler-bound'

/**
 * What a string of each length may lack of a query's characters, given the prefix it shares: a string of length
 * b sharing p characters needs m0(a, b, p) of the query's a (`minJaroWinklerMatches`), so it may lack a − m0;
 * −1 where no string of that length can reach the floor. Made non-increasing in length (each entry the most
 * any longer length may lack), which is what `LackCounter.survivors` expects; `shortest` and `longest` bound
 * the lengths that can reach the floor at all, and no length past `spare.length − 2` can, whatever its prefix.
 */
export interface Spare {
  spare: Int32Array
  shortest: number
  longest: number
}

/**
 * The longest length, up to `maxLength`, that a string sharing the most prefix Jaro-Winkler counts (4) can reach
 * `floor` with against a query of length `a`. Past `a`, the matches needed grow with length and at most `a`
 * exist, so the first length past `a` that cannot reach it ends the lengths that can: at floors above 0.8 that is
 * a few times `a`; at lower floors any length may reach it (then `maxLength`).
 */
function reachableLength(a: number, floor: number, maxLength: number): number {
  let length = Math.min(a, maxLength)
  while (length < maxLength && minJaroWinklerMatches(a, length + 1, 4, floor) <= a) length += 1
  return length
}

/**
 * The `Spare` of a query of length `a` for strings of length 1 to `maxLength` sharing `prefix` characters. Its
 * table stops at the longest length any prefix can reach the floor with (`reachableLength`), the same for every
 * prefix of one query: it is sized by the query, not by the longest string indexed (one name of 200 000
 * characters made every new query shape cost 60 ms and 800 KB of cached table per prefix).
 */
export function spareByLength(a: number, floor: number, prefix: number, maxLength: number): Spare {
  const size = reachableLength(a, floor, maxLength)
  const spare = new Int32Array(size + 2).fill(-1)
  let shortest = 0
  let longest = -1
  for (let b = 1; b <= size; b += 1) {
    const needed = minJaroWinklerMatches(a, b, prefix, floor)
    if (needed > Math.min(a, b)) continue
    spare[b] = a - needed
    if (shortest === 0) shortest = b
    longest = b
  }
  for (let b = size; b >= 1; b -= 1) spare[b] = Math.max(spare[b] as number, spare[b + 1] as number)
  return { spare, shortest, longest }
}
