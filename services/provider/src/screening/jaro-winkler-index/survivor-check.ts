import { boost, jaroOf } from '../../matching/jaro-winkler'
import {
  BOUND_SLACK,
  jaroWinklerAtLeast,
  jaroWinklerBound,
  minJaroWinklerMatches,
} from './jaro-winkler-bound'
import { lcsLengthWith } from './lcs-length'
import {
  BATCH,
  MAX_REACH_QUERY,
  TRIPLE_END_WORD,
  TRIPLE_NEED_WORD,
  TRIPLE_WORDS,
} from '../wasm-kernels/kernel-layout'
import type { LackCounter, SurvivorSink } from './lack-counter'

/** `lcsNeeded` for a string that cannot pass: above any LCS, and below 255 so that `needs` holds it plus one. */
const NEVER = 254

/**
 * The Jaro-Winkler of a query with the strings a `LackCounter` offers, computed only for those the cheap bounds
 * leave: the matches the string's length and exact prefix need (`minJaroWinklerMatches`) against the letters it
 * shares (what the counters say it lacks), then the bound its longest common subsequence sets on transpositions
 * (`jaroWinklerBound`), computed by the layout's kernel on its codes, a batch at a time (`WasmKernels.reach`).
 * Most survivors stop at one of these; the few left are scored by the kernel on the same codes (`score`) and
 * passed to `visit`.
 */
export class SurvivorCheck implements SurvivorSink {
  private readonly a: number
  /** The layout whose kernel holds the query's masks and the waiting batch. */
  private layout: LackCounter | undefined
  /** The query's characters as the layout's symbols (−1: in no string of it). */
  private symbols = new Int32Array(0)
  /** The symbol whose strings the layout's kernel leaves out: the query's initial in a layout searched by rule 0. */
  private excluded = -1
  /**
   * The batch's positions, needs and exact prefixes, kept here: the kernel writes over its needs (its starts and
   * ends stay, and scoring reads them there).
   */
  private readonly waitingPositions = new Int32Array(BATCH)
  private readonly waitingNeeds = new Int32Array(BATCH)
  private readonly waitingPrefixes = new Int32Array(BATCH)
  private waiting = 0
  private lcsOfString: ((text: string) => number) | undefined
  /** `lcsNeeded` answers plus one (0: not yet known), by length below `lengths`, prefix and shared letters. */
  private readonly needs: Uint8Array
  private readonly lengths: number

  /**
   * `needs`: a table this check may use (cleared here), at least `SurvivorCheck.tableSize(query.length)` long:
   * its owner keeps one for all its searches rather than allocating one per search (20 KB for 30 characters).
   */
  constructor(
    private readonly query: string,
    private readonly floor: number,
    private readonly strings: readonly string[],
    private readonly visit: (id: number, similarity: number) => void,
    needs: Uint8Array,
  ) {
    this.a = query.length
    this.lengths = SurvivorCheck.lengthsCached(this.a)
    this.needs = needs.fill(0, 0, SurvivorCheck.tableSize(this.a))
  }

  /**
   * Strings over 4a + 8 long rarely survive the counters, and queries over 64 characters are rare: both are
   * computed uncached rather than sizing the table for them.
   */
  private static lengthsCached(a: number): number {
    return a <= MAX_REACH_QUERY ? 4 * a + 9 : 0
  }

  /** The size of the table of `lcsNeeded` answers for a query of `a` characters. */
  static tableSize(a: number): number {
    return SurvivorCheck.lengthsCached(a) * 5 * (a + 1)
  }

  /**
   * A survivor at `position` of `layout`, its codes from `start`, `length` long, lacking `lacked` of the query's
   * occurrence tokens, sharing a Winkler prefix of `prefix` with it (capped here by both lengths, which makes it
   * exact): left out, scored now, or batched for its LCS. With prefix 0 (rule 0), a string with the query's
   * initial is left out: it was searched by prefix.
   */
  offer(
    layout: LackCounter,
    position: number,
    start: number,
    length: number,
    lacked: number,
    prefix: number,
  ): void {
    // At most a − lacked letters are shared (`LackCounter.survivors`).
    const exact = Math.min(prefix, this.a, length)
    const need = this.lcsNeeded(length, exact, this.a - lacked)
    if (need === NEVER) return
    if (need === 0 && prefix > 0) return this.score(layout, position, start, length, exact)
    // Enough letters, but in another order: the common subsequence tells (most survivors stop there).
    if (this.a > MAX_REACH_QUERY) {
      const text = this.strings[layout.order[position] as number] as string
      if (prefix === 0 && text.charCodeAt(0) === this.query.charCodeAt(0)) return
      if (this.longLcs(text) >= need) this.scoreString(layout, position)
      return
    }
    if (layout !== this.layout) this.readFrom(layout)
    const batch = layout.kernel.batch
    const at = TRIPLE_WORDS * this.waiting
    batch[at] = start
    batch[at + TRIPLE_END_WORD] = start + length
    batch[at + TRIPLE_NEED_WORD] = need
    this.waitingPositions[this.waiting] = position
    this.waitingNeeds[this.waiting] = need
    this.waitingPrefixes[this.waiting] = exact
    this.waiting += 1
    if (this.waiting === BATCH) this.flush()
  }

  /** Checks the waiting survivors' LCS and scores those reaching their need. */
  flush(): void {
    const layout = this.layout
    const count = this.waiting
    if (!layout || count === 0) return
    this.waiting = 0
    layout.kernel.reach(count, this.a, this.excluded)
    const batch = layout.kernel.batch
    for (let i = 0; i < count; i += 1) {
      const at = TRIPLE_WORDS * i
      if ((batch[at + TRIPLE_NEED_WORD] as number) < (this.waitingNeeds[i] as number)) continue
      const start = batch[at] as number
      const length = (batch[at + TRIPLE_END_WORD] as number) - start
      this.score(layout, this.waitingPositions[i] as number, start, length, this.waitingPrefixes[i] as number)
    }
  }

  /**
   * Scores the string at `position` (codes from `start`, `length` long, exact Winkler prefix `prefix`): its Jaro
   * counted by the kernel on its codes (`WasmKernels.jaro`, the counts `jaroAtLeast` takes, turned into the
   * similarity by the same formulas), so that its string is not read; on the string past 64 characters.
   */
  private score(layout: LackCounter, position: number, start: number, length: number, prefix: number): void {
    if (this.a > MAX_REACH_QUERY || length > MAX_REACH_QUERY || length === 0)
      return this.scoreString(layout, position)
    if (layout !== this.layout) this.readFrom(layout)
    const least = minJaroWinklerMatches(this.a, length, prefix, this.floor)
    if (least > Math.min(this.a, length)) return
    const counts = layout.kernel.jaro(start, length, this.a, least)
    if (counts < 0) return
    const similarity = boost(jaroOf(counts & 0xff, counts >>> 8, this.a, length), prefix)
    if (similarity >= this.floor) this.visit(layout.order[position] as number, similarity)
  }

  private scoreString(layout: LackCounter, position: number): void {
    const id = layout.order[position] as number
    const similarity = jaroWinklerAtLeast(this.query, this.strings[id] as string, this.floor)
    if (similarity >= this.floor) this.visit(id, similarity)
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

  /** Sets the query's masks in `layout`'s kernel, in its symbols (a search reads one layout, then the other). */
  private readFrom(layout: LackCounter): void {
    this.flush()
    this.release()
    this.layout = layout
    this.symbols = Int32Array.from({ length: this.a }, (_, i) => layout.symbolOf(this.query.charCodeAt(i)))
    if (this.a <= MAX_REACH_QUERY) layout.kernel.query.set(this.symbols)
    this.excluded = layout.lengthOnly ? layout.symbolOf(this.query.charCodeAt(0)) : -1
    const masks = layout.kernel.masks
    this.symbols.forEach((symbol, i) => {
      if (symbol >= 0)
        masks[2 * symbol + (i >>> 5)] = (masks[2 * symbol + (i >>> 5)] as number) | (1 << (i & 31))
    })
  }

  /** Clears the query's masks from the kernel, with what is waiting (after a search ends or fails). */
  release(): void {
    const masks = this.layout?.kernel.masks
    if (masks) for (const symbol of this.symbols) if (symbol >= 0) masks.fill(0, 2 * symbol, 2 * symbol + 2)
    this.layout = undefined
    this.waiting = 0
  }

  /** Queries longer than the kernel's row (over 64 characters) are compared on strings. */
  private longLcs(text: string): number {
    this.lcsOfString ??= lcsLengthWith(this.query)
    return this.lcsOfString(text)
  }
}
