import { minJaroWinklerMatches } from '../matching/jaro-winkler-bound'

/**
 * What a string of each length may lack of a query's characters, given the prefix it shares: a string of length
 * b sharing p characters needs m0(a, b, p) of the query's a (`minJaroWinklerMatches`), so it may lack a − m0;
 * −1 where no string of that length can reach the floor. Made non-increasing in length (each entry the most
 * any longer length may lack), which is what `LackCounter.survivors` expects; `shortest` and `longest` bound
 * the lengths that can reach the floor at all.
 */
export interface Spare {
  spare: Int32Array
  shortest: number
  longest: number
}

/** The `Spare` of a query of length `a` for strings of length 1 to `maxLength` sharing `prefix` characters. */
export function spareByLength(a: number, floor: number, prefix: number, maxLength: number): Spare {
  const spare = new Int32Array(maxLength + 2).fill(-1)
  let shortest = 0
  let longest = -1
  for (let b = 1; b <= maxLength; b += 1) {
    const needed = minJaroWinklerMatches(a, b, prefix, floor)
    if (needed > Math.min(a, b)) continue
    spare[b] = a - needed
    if (shortest === 0) shortest = b
    longest = b
  }
  for (let b = maxLength; b >= 1; b -= 1) spare[b] = Math.max(spare[b] as number, spare[b + 1] as number)
  return { spare, shortest, longest }
}
