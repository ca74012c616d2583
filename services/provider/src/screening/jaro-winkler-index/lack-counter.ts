import { LETTER_BINS } from './letter-counts'
import {
  PLANE_WORDS,
  PLANES,
  RECORD_PLANES_WORD,
  RECORD_SURVIVORS_WORD,
  RECORDS,
} from '../wasm-kernels/kernel-layout'
import { WasmKernels } from '../wasm-kernels/wasm-kernels'
import type { Tick } from '../search-budget'

/** Occurrences counted per character bin: "holds at least k of bin c" for k = 1..8 is one bit per string. */
export const PER_BIN = 8
const TOKENS = LETTER_BINS * PER_BIN
const MAX_SPARE = (1 << PLANES) - 2
/** Blocks of 128 strings counted per kernel call at most: the search's budget is checked between calls. */
const SCAN_BLOCKS = 1024

/**
 * What the strings searched share with the query at their start, which sets the spare they are held to and the
 * Winkler prefix their check uses, read from `heads` (no read of a survivor's codes, a cache miss):
 * - 0: any initial, in a layout ordered by length alone (it has no heads): survivors are offered with prefix 0,
 *   and the sink leaves out those with the query's initial (they are searched by prefix) when it reads their
 *   codes;
 * - 1: the query's initial, another second character;
 * - 2: the query's first two characters: the prefix is 2 to 4 by the `third` and `fourth` (−1: none), and
 *   `spares` are those of a shared prefix of 2, 3 and 4.
 */
export type PrefixRule =
  | { shared: 0 }
  | { shared: 1 }
  | { shared: 2; third: number; fourth: number; spares: readonly [Int32Array, Int32Array, Int32Array] }

/**
 * Where a layout's survivors go: with where their codes start, their length, what they lack and the Winkler
 * prefix their rule gives (exact but for a string or query shorter than it; 0 from rule 0, whose strings with the
 * query's initial the sink leaves out).
 */
export interface SurvivorSink {
  offer(
    layout: LackCounter,
    position: number,
    start: number,
    length: number,
    lacked: number,
    prefix: number,
  ): void
}

/** Where `survivors` is in one search. */
interface Scope {
  from: number
  to: number
  spare: Int32Array
  rule: PrefixRule
  sink: SurvivorSink
  /** The counters' start, 63 − allowed, subtracted from a survivor's count for its lack. */
  start: number
  /** In a layout ordered by length alone, the length of the last survivor offered (offers come in order). */
  length: number
}

/** Two characters of a string from `from` on in one number (`heads`): 0xffff stands for none. */
function headOf(text: string, from: number): number {
  const first = text.length > from ? text.charCodeAt(from) : 0xffff
  const second = text.length > from + 1 ? text.charCodeAt(from + 1) : 0xffff
  return (first << 16) | second
}

/**
 * Strings in a fixed order, 32 to a word, with one bitset per character-occurrence token ("holds at least k of
 * bin c"). `survivors` counts, 128 strings at a time (`WasmKernels`, WebAssembly SIMD), how many of a
 * query's tokens each string lacks, in bit-sliced counters, and offers those that lack no more than their
 * length and prefix allow. The strings' characters are kept in the same order in one array (`codes`, in the
 * kernel's memory, where it computes survivors' LCS and Jaro), so that a survivor is checked on sequential
 * memory rather than on a string reached through a pointer (at a million names, a cache miss or two each).
 */
export class LackCounter {
  private constructor(
    /** String ids in this layout's order. */
    readonly order: Int32Array,
    /**
     * `kernel.bits[(c * 8 + k − 1) * words + w]`: bit i set when the string at position 32w + i holds ≥ k of
     * bin c. Token-major: a search reads each of its tokens' rows front to back, a few sequential streams the
     * memory fetches ahead, where word-major blocks cost a cache miss per token and word (at a million names,
     * most of a query's time). `kernel.codes[kernel.starts[p] .. kernel.starts[p + 1])`: the characters of the
     * string at position p, as symbols (`symbolOf`); lengths are read from `starts` too.
     */
    readonly kernel: WasmKernels,
    /** 32-string words in a row: whole blocks of 128 strings. */
    private readonly words: number,
    /**
     * When the layout holds at most 256 distinct UTF-16 codes (the million multi-script names hold 212), each is
     * stored as one byte, its rank here: half the cache lines a survivor's check reads, and half the memory.
     * Undefined: the codes themselves, two bytes each.
     */
    private readonly ranks: Map<number, number> | undefined,
    /**
     * Each string's two characters from `headsFrom` (`headOf`), read for rule 2; undefined in a layout ordered by
     * length alone, where `lengthFirst[n]` is the first position of a string at least n long, `codeFirst[n]` where
     * its codes start, so that a survivor's start is computed, not read (a cache miss).
     */
    private readonly heads: Int32Array | undefined,
    private readonly lengthFirst: Int32Array,
    private readonly codeFirst: Int32Array,
  ) {}

  /** Ordered by length alone, searched with rule 0. */
  get lengthOnly(): boolean {
    return this.heads === undefined
  }

  /** The symbol the codes hold for a UTF-16 code, or −1 for a code no string of the layout holds. */
  symbolOf(code: number): number {
    return this.ranks ? (this.ranks.get(code) ?? -1) : code
  }

  /** Row offsets of the current search's tokens. */
  private readonly rows = new Int32Array(TOKENS)
  /** The survivors of one scan (at most 128 per record), and what each lacks. */
  private readonly found = new Int32Array(128 * RECORDS)
  private readonly foundLacked = new Int32Array(128 * RECORDS)
  /** What touching the survivors' starts and heads read: kept, so that the reads are not optimized away. */
  private touched = 0

  /**
   * The layout of `order` (ids into `strings`), from their character counts (`countLetters`, 32 per string).
   * `headsFrom`: where the two characters rule 2 reads start (2); without it, `order` is by length alone.
   */
  static build(
    strings: readonly string[],
    counts: Uint8Array,
    order: Int32Array,
    { headsFrom }: { headsFrom?: number } = {},
  ): LackCounter {
    const words = 4 * Math.ceil(order.length / 128)
    const ranks = symbolRanks(strings, order)
    const codeUnits = order.reduce((sum, id) => sum + (strings[id] as string).length, 0)
    const kernel = new WasmKernels({
      positions: order.length,
      codeUnits,
      wide: !ranks,
      bitWords: words * TOKENS,
    })
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
    layoutCodes(strings, order, kernel, ranks)
    if (headsFrom !== undefined) {
      const heads = Int32Array.from(order, (id) => headOf(strings[id] as string, headsFrom))
      return new LackCounter(order, kernel, words, ranks, heads, new Int32Array(0), new Int32Array(0))
    }
    const { lengthFirst, codeFirst } = lengthTables(kernel.starts)
    return new LackCounter(order, kernel, words, ranks, undefined, lengthFirst, codeFirst)
  }

  /** Length of the string at `position`. */
  lengthAt(position: number): number {
    const starts = this.kernel.starts
    return (starts[position + 1] as number) - (starts[position] as number)
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
   * Offers to `sink` each string in positions [from, to) (lengths growing) that lacks at most what its length
   * and prefix allow (`spare`, or `rule`'s spares by exact prefix) of `tokens` (token ids `bin * 8 + k − 1`, the
   * ones most strings lack first: a block is left as soon as all of its strings lack too many), with how many
   * it lacks (0 when the spare was too large to count). A block with a survivor was counted for every token, so
   * its counters are exact: a query of `a` characters then shares at most `a − lacked` with the string (exactly
   * that when the query holds at most 8 of each bin; a bin held more often only counts 8 times, which leaves the
   * bound an upper one). `spare` must not grow with length.
   */
  survivors(
    from: number,
    to: number,
    spare: Int32Array,
    tokens: Int32Array,
    { rule, sink, tick }: { rule: PrefixRule; sink: SurvivorSink; tick: Tick },
  ): void {
    if (from >= to) return
    if ((rule.shared === 0) !== this.lengthOnly) throw new TypeError('rule 0 is for a layout by length alone')
    const rows = this.rows
    for (let k = 0; k < tokens.length; k += 1) rows[k] = (tokens[k] as number) * this.words
    this.kernel.setRows(rows, tokens.length)
    const scope: Scope = { from, to, spare, rule, sink, start: 0, length: this.lengthAt(from) }
    const end = ((to - 1) >>> 7) + 1
    for (let block = from >>> 7; block < end;) {
      // Blocks whose first string may lack as many (spare falls with length, lengths grow): one scan.
      const first = Math.max(from, block << 7)
      const allowed = spare[this.lengthAt(first)] as number
      const last = this.firstLonger(first, to, lastLengthWith(spare, this.lengthAt(first)))
      const rangeEnd = Math.min(end, ((last - 1) >>> 7) + 1)
      if (allowed > MAX_SPARE) {
        const upTo = Math.min(to, rangeEnd << 7)
        tick(upTo - first)
        for (let position = first; position < upTo; position += 1) this.offer(position, 0, scope)
      } else {
        scope.start = (1 << PLANES) - 1 - allowed
        for (let at = block; at < rangeEnd;) {
          const stop = this.kernel.scan(tokens.length, at, Math.min(rangeEnd, at + SCAN_BLOCKS), scope.start)
          tick(4 * (stop - at))
          this.offerRecords(scope)
          at = stop
        }
      }
      block = rangeEnd
    }
  }

  /** The survivors of the kernel's last scan: each string of a recorded block in [from, to). */
  private offerRecords(scope: Scope): void {
    const { words } = this.kernel
    const { from, to, start } = scope
    const { found, foundLacked } = this
    let count = 0
    for (let r = 0; r < this.kernel.recordCount(); r += 1) {
      const at = this.kernel.recordAt(r)
      const block = words[at] as number
      for (let lane = 0; lane < 4; lane += 1) {
        const first = (block << 7) + (lane << 5)
        let survivors =
          (words[at + RECORD_SURVIVORS_WORD + lane] as number) & bitRange(from - first, to - first)
        if (survivors === 0) continue
        // The lane's six planes (`PLANES`), read once for all its survivors.
        const plane = at + RECORD_PLANES_WORD + lane
        const p0 = words[plane] as number
        const p1 = words[plane + PLANE_WORDS] as number
        const p2 = words[plane + 2 * PLANE_WORDS] as number
        const p3 = words[plane + 3 * PLANE_WORDS] as number
        const p4 = words[plane + 4 * PLANE_WORDS] as number
        const p5 = words[plane + 5 * PLANE_WORDS] as number
        // Lowest first: survivors are offered in order.
        while (survivors !== 0) {
          const low = survivors & -survivors
          const bit = 31 - Math.clz32(low)
          survivors ^= low
          const counter =
            ((p0 >>> bit) & 1) |
            (((p1 >>> bit) & 1) << 1) |
            (((p2 >>> bit) & 1) << 2) |
            (((p3 >>> bit) & 1) << 3) |
            (((p4 >>> bit) & 1) << 4) |
            (((p5 >>> bit) & 1) << 5)
          found[count] = first + bit
          foundLacked[count] = counter - start
          count += 1
        }
      }
    }
    // Survivors are sparse (one in 30 for a long query): each one's start (and head, for rule 2) is a cache
    // miss. Read all of them first, loads that do not wait on one another, so that the misses overlap rather than
    // come in turn. The layout by length alone reads neither.
    const { starts } = this.kernel
    const heads = scope.rule.shared === 2 ? this.heads : undefined
    let touched = 0
    if (!this.lengthOnly)
      for (let i = 0; i < count; i += 1) {
        const position = found[i] as number
        touched |= (starts[position] as number) ^ (heads ? (heads[position] as number) : 0)
      }
    this.touched |= touched
    for (let i = 0; i < count; i += 1) this.offer(found[i] as number, foundLacked[i] as number, scope)
  }

  /**
   * Offers the string at `position` if it lacks no more than its own length and prefix allow: its block was
   * counted against its first, shortest string's allowance, and the run against the longest prefix it may share.
   */
  private offer(position: number, lacked: number, scope: Scope): void {
    const { spare, rule, sink } = scope
    const heads = this.heads
    if (!heads) {
      // By length alone: lengths grow with positions, offered in order.
      let length = scope.length
      while (position >= (this.lengthFirst[length + 1] as number)) length += 1
      scope.length = length
      const start =
        (this.codeFirst[length] as number) + (position - (this.lengthFirst[length] as number)) * length
      if (lacked <= (spare[length] as number)) sink.offer(this, position, start, length, lacked, 0)
      return
    }
    const { starts } = this.kernel
    const start = starts[position] as number
    const length = (starts[position + 1] as number) - start
    let more = 0
    let allowed = spare[length] as number
    if (rule.shared === 2) {
      const head = heads[position] as number
      more = head >>> 16 !== rule.third ? 0 : (head & 0xffff) !== rule.fourth ? 1 : 2
      allowed = rule.spares[more as 0 | 1 | 2][length] as number
    }
    if (lacked <= allowed) sink.offer(this, position, start, length, lacked, rule.shared + more)
  }
}

/** The longest length from `length` on whose spare is the same (spare never grows with length). */
function lastLengthWith(spare: Int32Array, length: number): number {
  let last = length
  while (last + 1 < spare.length && spare[last + 1] === spare[length]) last += 1
  return last
}

/** Each code's rank when `order`'s strings hold at most 256 distinct ones, else undefined. */
function symbolRanks(strings: readonly string[], order: Int32Array): Map<number, number> | undefined {
  const distinct = new Set<number>()
  for (const id of order) {
    const text = strings[id] as string
    for (let i = 0; i < text.length; i += 1) distinct.add(text.charCodeAt(i))
  }
  return distinct.size <= 256 ? new Map([...distinct].map((code, rank) => [code, rank])) : undefined
}

/** Writes `order`'s strings into the kernel's `starts` and `codes`: their ranks, or their codes. */
function layoutCodes(
  strings: readonly string[],
  order: Int32Array,
  { starts, codes }: WasmKernels,
  ranks: Map<number, number> | undefined,
): void {
  // A code's symbol by table (a map read per character would add seconds to a million names' build).
  const symbol = ranks ? new Int32Array(65536) : Int32Array.from({ length: 65536 }, (_, code) => code)
  ranks?.forEach((rank, code) => (symbol[code] = rank))
  order.forEach((id, position) => {
    const text = strings[id] as string
    const start = starts[position] as number
    starts[position + 1] = start + text.length
    for (let i = 0; i < text.length; i += 1) codes[start + i] = symbol[text.charCodeAt(i)] as number
  })
}

/**
 * For strings laid out by growing length (`starts`): the first position of a string at least n long, and where
 * its codes start, for n up to the longest length + 1.
 */
function lengthTables(starts: Int32Array): { lengthFirst: Int32Array; codeFirst: Int32Array } {
  const positions = starts.length - 1
  const longest = positions > 0 ? (starts[positions] as number) - (starts[positions - 1] as number) : 0
  const lengthFirst = new Int32Array(longest + 2)
  const codeFirst = new Int32Array(longest + 2)
  let position = 0
  for (let n = 0; n <= longest + 1; n += 1) {
    while (position < positions && (starts[position + 1] as number) - (starts[position] as number) < n)
      position += 1
    lengthFirst[n] = position
    codeFirst[n] = starts[position] as number
  }
  return { lengthFirst, codeFirst }
}

/** Bits [from, to) of a 32-bit word, the bounds clamped to [0, 32]. */
function bitRange(from: number, to: number): number {
  if (from <= 0 && to >= 32) return -1
  if (to <= 0 || from >= 32 || to <= from) return 0
  const upTo = to >= 32 ? -1 : (1 << to) - 1
  return upTo & ~((1 << Math.max(0, from)) - 1)
}
