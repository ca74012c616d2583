import { jaroWinklerAtLeast } from '../matching/jaro-winkler'
import { BOUND_SLACK, jaroWinklerBound, minJaroWinklerMatches } from '../matching/jaro-winkler-bound'
import { CodesLcs } from '../matching/lcs-codes'
import { lcsLengthWith } from '../matching/lcs-length'
import type { LackCounter } from './lack-counter'

/**
 * The Jaro-Winkler of a query with the strings a `LackCounter` kept, computed only for those the cheap bounds
 * leave: the matches the string's length and exact prefix need (`minJaroWinklerMatches`) against the letters it
 * shares (what the counters say it lacks), then the bound its longest common subsequence sets on transpositions
 * (`jaroWinklerBound`), computed on the layout's codes (`CodesLcs`). Most survivors stop at one of these, read
 * from sequential typed arrays; the few left are scored on their strings.
 */
export class SurvivorCheck {
  private readonly a: number
  /** The query's first four codes: the Winkler prefix is read from the layout's codes against them. */
  private readonly head: Int32Array
  private readonly lcs: CodesLcs | undefined
  private lcsOfString: ((text: string) => number) | undefined

  constructor(
    private readonly query: string,
    private readonly floor: number,
    private readonly strings: readonly string[],
  ) {
    this.a = query.length
    this.head = Int32Array.from({ length: Math.min(4, query.length) }, (_, i) => query.charCodeAt(i))
    this.lcs = CodesLcs.of(query)
  }

  /**
   * `jaroWinkler(query, string)` for the string at `position` of `layout`, or −1 when it is below the floor;
   * `lacked` is how many of the query's occurrence tokens the counters found it lacking.
   */
  similarity(layout: LackCounter, position: number, lacked: number): number {
    const codes = layout.codes
    const start = layout.starts[position] as number
    const b = (layout.starts[position + 1] as number) - start
    const a = this.a
    const head = this.head
    let prefix = 0
    while (prefix < head.length && prefix < b && codes[start + prefix] === head[prefix]) prefix += 1
    const needed = minJaroWinklerMatches(a, b, prefix, this.floor)
    if (needed > (a < b ? a : b)) return -1
    if (needed > 0) {
      // At most a − lacked letters are shared (`LackCounter.survivors`).
      const shared = a - lacked
      if (shared < needed) return -1
      // Enough letters, but in another order: the common subsequence tells (most survivors stop here).
      const lcs = this.lcs
        ? this.lcs.length(codes, start, start + b)
        : this.longLcs(this.strings[layout.order[position] as number] as string)
      if (jaroWinklerBound(a, b, prefix, shared, lcs) < this.floor - BOUND_SLACK) return -1
    }
    return jaroWinklerAtLeast(
      this.query,
      this.strings[layout.order[position] as number] as string,
      this.floor,
    )
  }

  /** Lends the LCS tables back (`CodesLcs.release`). */
  release(): void {
    this.lcs?.release()
  }

  /** Queries longer than `CodesLcs` handles (over 64 characters) are compared on strings. */
  private longLcs(text: string): number {
    this.lcsOfString ??= lcsLengthWith(this.query)
    return this.lcsOfString(text)
  }
}
