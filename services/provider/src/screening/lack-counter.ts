import { LETTER_BINS } from '../matching/letter-counts'
import type { Tick } from './search-budget'
import { LackCountKernel } from './lack-count-kernel'

/** Occurrences counted per character bin: "holds at least k of bin c" for k = 1..8 is one bit per string. */
export const PER_BIN = 8
const TOKENS = LETTER_BINS * PER_BIN
/** Bit planes of the per-string counters: up to 62 missing characters are told apart. */
const PLANES = 6
const MAX_SPARE = (1 << PLANES) - 2
/** Survivors gathered before they are kept: enough for their cache misses to overlap. */
const WAITING = 64
/** Blocks of 128 strings counted per kernel call at most: the search's budget is checked between calls. */
const SCAN_BLOCKS = 1024

/** Where `survivors` is in one search: the records it keeps, and the survivors waiting to be kept. */
interface Scope {
  from: number
  to: number
  spare: Int32Array
  keep: (position: number, lacked: number) => void
  /** The counters' start, 63 − allowed, subtracted from a survivor's count for its lack. */
  start: number
  waiting: number
}

/**
 * Strings in a fixed order, 32 to a word, with one bitset per character-occurrence token ("holds at least k of
 * bin c"). `survivors` counts, 128 strings at a time (`LackCountKernel`, WebAssembly SIMD), how many of a query's tokens each string lacks, in
 * bit-sliced counters, and keeps those that lack no more than their length allows. The strings' characters are
 * kept in the same order in one array (`codes`), so that a survivor is checked on sequential memory rather than
 * on a string reached through a pointer (at a million names, a cache miss or two per survivor).
 */
export class LackCounter {
  private constructor(
    /** String ids in this layout's order. */
    readonly order: Int32Array,
    /**
     * `kernel.bits[(c * 8 + k − 1) * words + w]`: bit i set when the string at position 32w + i holds ≥ k of
     * bin c. Token-major: a search reads each of its tokens' rows front to back, a few sequential streams the
     * memory fetches ahead, where word-major blocks cost a cache miss per token and word (at a million names,
     * most of a query's time).
     */
    private readonly kernel: LackCountKernel,
    /** 32-string words in a row: whole blocks of 128 strings. */
    private readonly words: number,
    /**
     * The characters of the string at position p: `codes[starts[p] .. starts[p + 1])`, as symbols (`symbolOf`).
     * The lengths are read from `starts` too, so the count of a word brings into the cache where its survivors'
     * codes start.
     */
    readonly codes: Uint8Array | Uint16Array,
    readonly starts: Int32Array,
    /**
     * When the layout holds at most 256 distinct UTF-16 codes (the million multi-script names hold 212), each is
     * stored as one byte, its rank here: half the cache lines a survivor's check reads, and half the memory.
     * Undefined: the codes themselves, in a `Uint16Array`.
     */
    private readonly ranks: Map<number, number> | undefined,
  ) {}

  /** The symbol `codes` hold for a UTF-16 code, or −1 for a code no string of the layout holds. */
  symbolOf(code: number): number {
    return this.ranks ? (this.ranks.get(code) ?? -1) : code
  }

  /** Row offsets of the current search's tokens. */
  private readonly rows = new Int32Array(TOKENS)
  /** Survivors found but not yet kept (`keepWaiting`): positions and lacks. */
  private readonly waiting = new Int32Array(WAITING)
  private readonly waitingLacked = new Int32Array(WAITING)
  /** What touching the waiting survivors' codes read: kept so that the reads are not optimized away. */
  private touched = 0

  /** The layout of `order` (ids into `strings`), from their character counts (`countLetters`, 32 per string). */
  static build(strings: readonly string[], counts: Uint8Array, order: Int32Array): LackCounter {
    const words = 4 * Math.ceil(order.length / 128)
    const kernel = new LackCountKernel(words * TOKENS)
    const bits = kernel.bits
    order.forEach((id, position) => {
      const word = position >>> 5
      const bit = 1 << (position & 31)
      for (let bin = 0; bin < LETTER_BINS; bin += 1) {
        const held = Math.min(counts[id * LETTER_BINS + bin] as number, PER_BIN)
        for (let k = 0; k < held; k += 1) {
          const at = (bin * PER_BIN + k) * words + word
          bits[at] = (bits[at] as number) | bit
        }
      }
    })
    const starts = new Int32Array(order.length + 1)
    order.forEach(
      (id, position) => (starts[position + 1] = (starts[position] as number) + strings[id]!.length),
    )
    const { codes, ranks } = layoutCodes(strings, order, starts)
    return new LackCounter(order, kernel, words, codes, starts, ranks)
  }

  /** Length of the string at `position`. */
  lengthAt(position: number): number {
    return (this.starts[position + 1] as number) - (this.starts[position] as number)
  }

  /** In [from, end), where lengths grow: the first position whose string is longer than `length`. */
  firstLonger(from: number, end: number, length: number): number {
    let lo = from
    let hi = end
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.lengthAt(mid) <= length) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /**
   * Calls `keep(position, lacked)` for each string in positions [from, to) (lengths growing) that lacks at most
   * `spare[its length]` of `tokens` (token ids `bin * 8 + k − 1`, the ones most strings lack first: a word is
   * left as soon as all of its strings lack too many), with how many it lacks (0 when the spare was too large
   * to count). A word with a survivor was counted for every token, so its counters are exact: a query of `a`
   * characters then shares at most `a − lacked` with the string (exactly that when the query holds at most 8 of
   * each bin; a bin held more often only counts 8 times, which leaves the bound an upper one). `spare` must not
   * grow with length.
   */
  survivors(
    from: number,
    to: number,
    spare: Int32Array,
    tokens: Int32Array,
    keep: (position: number, lacked: number) => void,
    tick: Tick,
  ): void {
    if (from >= to) return
    const rows = this.rows
    for (let k = 0; k < tokens.length; k += 1) rows[k] = (tokens[k] as number) * this.words
    this.kernel.setRows(rows, tokens.length)
    const scope = { from, to, spare, keep, start: 0, waiting: 0 }
    const end = ((to - 1) >>> 7) + 1
    for (let block = from >>> 7; block < end;) {
      // Blocks whose first string may lack as many (spare falls with length, lengths grow): one scan.
      const first = Math.max(from, block << 7)
      const allowed = spare[this.lengthAt(first)] as number
      const last = this.firstLonger(first, to, lastLengthWith(spare, this.lengthAt(first)))
      const rangeEnd = Math.min(end, ((last - 1) >>> 7) + 1)
      if (allowed > MAX_SPARE) this.keepAll(first, Math.min(to, rangeEnd << 7), scope)
      else {
        scope.start = (1 << PLANES) - 1 - allowed
        for (let at = block; at < rangeEnd;) {
          const stop = this.kernel.scan(tokens.length, at, Math.min(rangeEnd, at + SCAN_BLOCKS), scope.start)
          tick(4 * (stop - at))
          this.keepRecords(scope)
          at = stop
        }
      }
      block = rangeEnd
    }
    this.keepWaiting(scope.waiting, keep)
  }

  /** Every string in [from, to): the spare was too large to count, so none is told out (lacked 0). */
  private keepAll(from: number, to: number, scope: Scope): void {
    for (let position = from; position < to; position += 1) this.wait(position, 0, scope)
  }

  /**
   * The survivors of the kernel's last scan: each string of a recorded block in [from, to) that lacks no more
   * than its own length allows (the block was counted against its first, shortest string's allowance).
   */
  private keepRecords(scope: Scope): void {
    const { words } = this.kernel
    const { from, to, spare, start } = scope
    for (let r = 0; r < this.kernel.recordCount(); r += 1) {
      const at = this.kernel.recordAt(r)
      const block = words[at] as number
      for (let lane = 0; lane < 4; lane += 1) {
        const first = (block << 7) + (lane << 5)
        let survivors = (words[at + 4 + lane] as number) & bitRange(from - first, to - first)
        while (survivors !== 0) {
          const bit = 31 - Math.clz32(survivors)
          survivors ^= 1 << bit
          let count = 0
          for (let plane = 0; plane < PLANES; plane += 1)
            count |= (((words[at + 8 + 4 * plane + lane] as number) >>> bit) & 1) << plane
          const position = first + bit
          if (count - start <= (spare[this.lengthAt(position)] as number))
            this.wait(position, count - start, scope)
        }
      }
    }
  }

  private wait(position: number, lacked: number, scope: Scope): void {
    this.waiting[scope.waiting] = position
    this.waitingLacked[scope.waiting] = lacked
    scope.waiting += 1
    if (scope.waiting === WAITING) scope.waiting = this.keepWaiting(scope.waiting, scope.keep)
  }

  /**
   * Keeps the `count` waiting survivors, in the order found. Each one's check starts with a cache miss on its
   * codes (2 % of a million names survive a long query, spread over 40 MB); reading all of their first codes
   * first, loads that do not wait on one another, lets the misses overlap rather than come one after another.
   */
  private keepWaiting(count: number, keep: (position: number, lacked: number) => void): number {
    const { waiting, codes, starts } = this
    let touched = 0
    for (let i = 0; i < count; i += 1) touched |= codes[starts[waiting[i] as number] as number] as number
    this.touched |= touched
    for (let i = 0; i < count; i += 1) keep(waiting[i] as number, this.waitingLacked[i] as number)
    return 0
  }
}

/** The longest length from `length` on whose spare is the same (spare never grows with length). */
function lastLengthWith(spare: Int32Array, length: number): number {
  let last = length
  while (last + 1 < spare.length && spare[last + 1] === spare[length]) last += 1
  return last
}

/** The codes of `order`'s strings at `starts`: one byte each (their rank) when at most 256 distinct ones. */
function layoutCodes(
  strings: readonly string[],
  order: Int32Array,
  starts: Int32Array,
): { codes: Uint8Array | Uint16Array; ranks: Map<number, number> | undefined } {
  const distinct = new Set<number>()
  for (const id of order) {
    const text = strings[id] as string
    for (let i = 0; i < text.length; i += 1) distinct.add(text.charCodeAt(i))
  }
  const total = starts[order.length] as number
  const ranks = distinct.size <= 256 ? new Map([...distinct].map((code, rank) => [code, rank])) : undefined
  const codes = ranks ? new Uint8Array(total) : new Uint16Array(total)
  // A code's symbol by table (a map read per character would add seconds to a million names' build).
  const symbol = ranks ? new Int32Array(65536) : Int32Array.from({ length: 65536 }, (_, code) => code)
  ranks?.forEach((rank, code) => (symbol[code] = rank))
  order.forEach((id, position) => {
    const text = strings[id] as string
    const start = starts[position] as number
    for (let i = 0; i < text.length; i += 1) codes[start + i] = symbol[text.charCodeAt(i)] as number
  })
  return { codes, ranks }
}

/** Bits [from, to) of a 32-bit word, the bounds clamped to [0, 32]. */
function bitRange(from: number, to: number): number {
  if (from <= 0 && to >= 32) return -1
  if (to <= 0 || from >= 32 || to <= from) return 0
  const upTo = to >= 32 ? -1 : (1 << to) - 1
  return upTo & ~((1 << Math.max(0, from)) - 1)
}
