import { LETTER_BINS } from '../matching/letter-counts'

/** Occurrences counted per character bin: "holds at least k of bin c" for k = 1..8 is one bit per string. */
export const PER_BIN = 8
const TOKENS = LETTER_BINS * PER_BIN
/** Bit planes of the per-string counters: up to 62 missing characters are told apart. */
const PLANES = 6
const MAX_SPARE = (1 << PLANES) - 2
/** Survivors gathered before they are kept: enough for their cache misses to overlap. */
const WAITING = 64

/**
 * Strings in a fixed order, 32 to a word, with one bitset per character-occurrence token ("holds at least k of
 * bin c"). `survivors` counts, 32 strings at a time, how many of a query's tokens each string lacks, in
 * bit-sliced counters, and keeps those that lack no more than their length allows. The strings' characters are
 * kept in the same order in one array (`codes`), so that a survivor is checked on sequential memory rather than
 * on a string reached through a pointer (at a million names, a cache miss or two per survivor).
 */
export class LackCounter {
  private constructor(
    /** String ids in this layout's order. */
    readonly order: Int32Array,
    /**
     * `bits[(c * 8 + k − 1) * words + w]`: bit i set when the string at position 32w + i holds ≥ k of bin c.
     * Token-major: a search reads each of its tokens' rows front to back, a few sequential streams the memory
     * fetches ahead, where word-major blocks cost a cache miss per token and word (at a million names, most
     * of a query's time).
     */
    private readonly bits: Int32Array,
    /** 32-string words in the layout. */
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

  /** The bit planes of the last `overflow`'s counters, read back for the lack of each survivor. */
  private readonly planes = new Int32Array(PLANES)
  /** Row offsets of the current search's tokens. */
  private readonly rows = new Int32Array(TOKENS)
  /** Survivors found but not yet kept (`keepWaiting`): positions and lacks. */
  private readonly waiting = new Int32Array(WAITING)
  private readonly waitingLacked = new Int32Array(WAITING)
  /** What touching the waiting survivors' codes read: kept so that the reads are not optimized away. */
  private touched = 0

  /** The layout of `order` (ids into `strings`), from their character counts (`countLetters`, 32 per string). */
  static build(strings: readonly string[], counts: Uint8Array, order: Int32Array): LackCounter {
    const words = Math.ceil(order.length / 32)
    const bits = new Int32Array(words * TOKENS)
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
    return new LackCounter(order, bits, words, codes, starts, ranks)
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
    tick: () => void,
  ): void {
    const planes = this.planes
    let waiting = 0
    // Where each token's row starts: one addition per token and word in the count.
    const rows = this.rows
    for (let k = 0; k < tokens.length; k += 1) rows[k] = (tokens[k] as number) * this.words
    for (let word = from >>> 5; word << 5 < to; word += 1) {
      tick()
      const first = Math.max(from, word << 5)
      const last = Math.min(to, (word + 1) << 5)
      const valid = bitRange(first & 31, ((last - 1) & 31) + 1)
      // The word's first string is its shortest: it may lack the most.
      const allowed = spare[this.lengthAt(first)] as number
      const counted = allowed <= MAX_SPARE
      let survivors = counted ? valid & ~this.overflow(word, allowed, rows, tokens.length, valid) : valid
      // Counters started at 63 − allowed.
      const start = (1 << PLANES) - 1 - allowed
      while (survivors !== 0) {
        const bit = 31 - Math.clz32(survivors)
        survivors ^= 1 << bit
        let count = 0
        for (let plane = 0; plane < PLANES; plane += 1)
          count |= (((planes[plane] as number) >>> bit) & 1) << plane
        this.waiting[waiting] = (word << 5) + bit
        this.waitingLacked[waiting] = counted ? count - start : 0
        waiting += 1
        if (waiting === WAITING) waiting = this.keepWaiting(waiting, keep)
      }
    }
    this.keepWaiting(waiting, keep)
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

  /**
   * The strings of `word` lacking more than `allowed` of the tokens whose rows start at `rows[0 .. count)`:
   * counters start at 63 − allowed, so one lack more carries out of the top plane.
   */
  private overflow(word: number, allowed: number, rows: Int32Array, count: number, valid: number): number {
    const start = (1 << PLANES) - 1 - allowed
    let c0 = start & 1 ? -1 : 0
    let c1 = start & 2 ? -1 : 0
    let c2 = start & 4 ? -1 : 0
    let c3 = start & 8 ? -1 : 0
    let c4 = start & 16 ? -1 : 0
    let c5 = start & 32 ? -1 : 0
    let over = 0
    const bits = this.bits
    // Two tokens at a time: their lacks summed into a two-bit number (a half adder), added to the counters with
    // a full adder on plane 1 and a ripple above, unrolled over the six planes so that the counters stay in
    // locals; about a third fewer operations than two increments by one.
    let k = 0
    for (; k + 1 < count; k += 2) {
      const x = ~(bits[(rows[k] as number) + word] as number)
      const y = ~(bits[(rows[k + 1] as number) + word] as number)
      const ones = x ^ y
      const twos = x & y
      let carry = c0 & ones
      c0 ^= ones
      const sum = c1 ^ carry
      carry = (c1 & carry) | (sum & twos)
      c1 = sum ^ twos
      let next = c2 & carry
      c2 ^= carry
      carry = next
      next = c3 & carry
      c3 ^= carry
      carry = next
      next = c4 & carry
      c4 ^= carry
      carry = next
      next = c5 & carry
      c5 ^= carry
      over |= next
      if ((over & valid) === valid) return over
    }
    if (k < count) {
      // The odd token left: an increment by one.
      let carry = ~(bits[(rows[k] as number) + word] as number)
      let next = c0 & carry
      c0 ^= carry
      carry = next
      next = c1 & carry
      c1 ^= carry
      carry = next
      next = c2 & carry
      c2 ^= carry
      carry = next
      next = c3 & carry
      c3 ^= carry
      carry = next
      next = c4 & carry
      c4 ^= carry
      carry = next
      next = c5 & carry
      c5 ^= carry
      over |= next
    }
    const planes = this.planes
    planes[0] = c0
    planes[1] = c1
    planes[2] = c2
    planes[3] = c3
    planes[4] = c4
    planes[5] = c5
    return over
  }
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

/** Bits [from, to) of a 32-bit word. */
function bitRange(from: number, to: number): number {
  const upTo = to === 32 ? -1 : (1 << to) - 1
  return upTo & ~((1 << from) - 1)
}
