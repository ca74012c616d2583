import { jaroWinklerAtLeast } from '../matching/jaro-winkler'
import { BOUND_SLACK, jaroWinklerBound, minJaroWinklerMatches } from '../matching/jaro-winkler-bound'
import { CodesLcs, MAX_CODES_QUERY } from '../matching/lcs-codes'
import { lcsLengthWith } from '../matching/lcs-length'
import type { LackCounter } from './lack-counter'

/** `lcsNeeded` for a string that cannot pass: above any LCS, and below 255 so that `needs` holds it plus one. */
const NEVER = 254

/**
 * The Jaro-Winkler of a query with the strings a `LackCounter` kept, computed only for those the cheap bounds
 * leave: the matches the string's length and exact prefix need (`minJaroWinklerMatches`) against the letters it
 * shares (what the counters say it lacks), then the bound its longest common subsequence sets on transpositions
 * (`jaroWinklerBound`), computed on the layout's codes (`CodesLcs`). Most survivors stop at one of these, read
 * from sequential typed arrays; the few left are scored on their strings.
 */
export class SurvivorCheck {
  private readonly a: number
  /** The layout `head` and `lcs` are for: its codes may be one-byte symbols (`LackCounter.symbolOf`). */
  private layout: LackCounter | undefined
  /** The query's first four symbols: the Winkler prefix is read from the layout's codes against them. */
  private head = new Int32Array(0)
  private lcs: CodesLcs | undefined
  private lcsOfString: ((text: string) => number) | undefined
  /** `lcsNeeded` answers plus one (0: not yet known), by length below `lengths`, prefix and shared letters. */
  private readonly needs: Uint8Array
  private readonly lengths: number

  constructor(
    private readonly query: string,
    private readonly floor: number,
    private readonly strings: readonly string[],
  ) {
    this.a = query.length
    // Strings over 4a + 8 long rarely survive the counters, and queries over 64 characters are rare: both are
    // computed uncached rather than sizing the table for them.
    this.lengths = query.length <= MAX_CODES_QUERY ? 4 * this.a + 9 : 0
    this.needs = new Uint8Array(this.lengths * 5 * (this.a + 1))
  }

  /**
   * `jaroWinkler(query, string)` for the string at `position` of `layout`, or −1 when it is below the floor;
   * `lacked` is how many of the query's occurrence tokens the counters found it lacking.
   */
  similarity(layout: LackCounter, position: number, lacked: number): number {
    if (layout !== this.layout) this.readFrom(layout)
    const codes = layout.codes
    const start = layout.starts[position] as number
    const b = (layout.starts[position + 1] as number) - start
    const head = this.head
    let prefix = 0
    while (prefix < head.length && prefix < b && codes[start + prefix] === head[prefix]) prefix += 1
    // At most a − lacked letters are shared (`LackCounter.survivors`).
    const need = this.lcsNeeded(b, prefix, this.a - lacked)
    if (need === NEVER) return -1
    // Enough letters, but in another order: the common subsequence tells (most survivors stop here).
    if (need > 0) {
      const reached = this.lcs
        ? this.lcs.reaches(codes, start, start + b, need)
        : this.longLcs(this.strings[layout.order[position] as number] as string) >= need
      if (!reached) return -1
    }
    return jaroWinklerAtLeast(
      this.query,
      this.strings[layout.order[position] as number] as string,
      this.floor,
    )
  }

  /**
   * The least LCS with which a string of length `b`, exact prefix `prefix` and `shared` letters in common can
   * pass `jaroWinklerBound`, or `NEVER` when it cannot pass (`minJaroWinklerMatches`). Few distinct triples come
   * up per query, so each is computed once (`needs`) and a survivor costs a table read, not floating point.
   * The least passing value, not a threshold assumed from monotony: every LCS below it fails the bound, so a
   * string is left out only when the bound itself would leave it out.
   */
  private lcsNeeded(b: number, prefix: number, shared: number): number {
    const slot = b < this.lengths ? (b * 5 + prefix) * (this.a + 1) + shared : -1
    const known = slot < 0 ? 0 : (this.needs[slot] as number)
    if (known > 0) return known - 1
    const need = this.computeNeed(b, prefix, shared)
    if (slot >= 0) this.needs[slot] = need + 1
    return need
  }

  private computeNeed(b: number, prefix: number, shared: number): number {
    const a = this.a
    const needed = minJaroWinklerMatches(a, b, prefix, this.floor)
    if (needed > (a < b ? a : b)) return NEVER
    if (needed <= 0) return 0
    if (shared < needed) return NEVER
    for (let lcs = 0; lcs <= Math.min(a, b); lcs += 1)
      if (jaroWinklerBound(a, b, prefix, shared, lcs) >= this.floor - BOUND_SLACK) return lcs
    return NEVER
  }

  /** The query's prefix and LCS tables in `layout`'s symbols (a search reads one layout, then the other). */
  private readFrom(layout: LackCounter): void {
    this.release()
    const symbolOf = (code: number) => layout.symbolOf(code)
    this.layout = layout
    this.head = Int32Array.from({ length: Math.min(4, this.a) }, (_, i) => symbolOf(this.query.charCodeAt(i)))
    this.lcs = CodesLcs.of(this.query, symbolOf)
  }

  /** Lends the LCS tables back (`CodesLcs.release`). */
  release(): void {
    this.lcs?.release()
    this.lcs = undefined
  }

  /** Queries longer than `CodesLcs` handles (over 64 characters) are compared on strings. */
  private longLcs(text: string): number {
    this.lcsOfString ??= lcsLengthWith(this.query)
    return this.lcsOfString(text)
  }
}
