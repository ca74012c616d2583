/** Query characters one `CodesLcs` handles: two 32-bit words of positions. */
export const MAX_CODES_QUERY = 64

interface Masks {
  /** Where each UTF-16 code occurs in the query: positions 0-31 in `low`, 32-63 in `high`. */
  low: Int32Array
  high: Int32Array
}

// Tables indexed by code: one load per text character, where a map or a hash probe cost a call. Zeroing 512 KB
// per query would cost more than the query, so only the query's own codes are set and cleared again (`release`);
// the one pair is lent out and a nested search gets a fresh pair.
let idle: Masks | undefined

/**
 * The length of the longest common subsequence of one query (at most 64 code units) with texts held as UTF-16
 * codes in a `Uint16Array` or as one-byte symbols of their codes in a `Uint8Array` (`LackCounter`): the bit-parallel recurrence of `lcsLengthWith` (Allison and Dix; Hyyrö 2004) with the
 * row in one or two 32-bit integers, read from a typed array. The index's survivors are checked this way: no
 * string to reach, no closure, no map per character.
 *
 * @example const lcs = CodesLcs.of('PUTIN'); lcs.length(Uint16Array.from('TURIN', (c) => c.charCodeAt(0)), 0, 5) // 3
 */
export class CodesLcs {
  private constructor(
    private readonly query: string,
    /** The query's characters as the texts' symbols (−1: in no text), set in the masks and cleared again. */
    private readonly symbols: Int32Array,
    private readonly masks: Masks,
    private readonly lowTop: number,
    private readonly highTop: number,
  ) {}

  /** The bit-parallel row between `advance` calls: a bit of positions 0-31 / 32-63 clears once matched. */
  private row = -1
  private rowHigh = -1

  /**
   * Undefined for a query longer than `MAX_CODES_QUERY`. Call `release` when done. `symbolOf` maps a UTF-16
   * code to what the texts hold for it (−1 when no text holds it); by default the code itself.
   */
  static of(query: string, symbolOf: (code: number) => number = (code) => code): CodesLcs | undefined {
    const a = query.length
    if (a > MAX_CODES_QUERY) return undefined
    const masks = idle ?? { low: new Int32Array(65536), high: new Int32Array(65536) }
    idle = undefined
    const symbols = Int32Array.from({ length: a }, (_, i) => symbolOf(query.charCodeAt(i)))
    for (let i = 0; i < a; i += 1) {
      const code = symbols[i] as number
      if (code < 0) continue
      if (i < 32) masks.low[code] = (masks.low[code] as number) | (1 << i)
      else masks.high[code] = (masks.high[code] as number) | (1 << (i - 32))
    }
    const ones = (n: number) => (n >= 32 ? -1 : (1 << n) - 1)
    return new CodesLcs(query, symbols, masks, ones(Math.min(a, 32)), ones(Math.max(0, a - 32)))
  }

  /** The LCS length of the query and `codes[from .. to)`. */
  length(codes: Uint8Array | Uint16Array, from: number, to: number): number {
    this.row = -1
    this.rowHigh = -1
    return this.advance(codes, from, to)
  }

  /**
   * Whether the LCS of the query and `codes[from .. to)` is at least `need`: what `jaroWinklerBound` asks,
   * answered as soon as it is known. The LCS is the count of zeros in the row and grows by at most one per text
   * character, so after a count of `lcs` with `left` characters to go the answer cannot be known before
   * min(lcs + left − need + 1, need − lcs) more characters (the steps to fall short, to reach it): the row is
   * counted only then, a few times per text instead of once per character. Long queries' survivors mostly fall
   * short before their end.
   */
  reaches(codes: Uint8Array | Uint16Array, from: number, to: number, need: number): boolean {
    if (need <= 0) return true
    if (need > this.query.length || need > to - from) return false
    this.row = -1
    this.rowHigh = -1
    let lcs = 0
    let j = from
    for (;;) {
      const next = j + Math.min(lcs + (to - j) - need + 1, need - lcs)
      lcs = this.advance(codes, j, next)
      j = next
      if (lcs >= need) return true
      if (lcs + (to - j) < need) return false
    }
  }

  /**
   * Runs the row (`row`, `rowHigh`) on over `codes[from .. to)` and returns the LCS so far. The row lives in
   * locals inside the loop, in the fields between calls: one loop for `length` and `reaches`' steps.
   */
  private advance(codes: Uint8Array | Uint16Array, from: number, to: number): number {
    const { low, high } = this.masks
    let row = this.row
    if (this.highTop === 0) {
      for (let j = from; j < to; j += 1) {
        const u = row & (low[codes[j] as number] as number)
        row = (row + u) | (row & ~u)
      }
      this.row = row
      return this.query.length - popcount(row & this.lowTop)
    }
    let rowHigh = this.rowHigh
    for (let j = from; j < to; j += 1) {
      const code = codes[j] as number
      const u = row & (low[code] as number)
      const sum = (row >>> 0) + (u >>> 0)
      row = sum | 0 | (row & ~u)
      // The low word's carry goes on into the high one: positions 32-63 of one 64-bit row.
      const uHigh = rowHigh & (high[code] as number)
      rowHigh = (rowHigh + uHigh + (sum > 0xffffffff ? 1 : 0)) | 0 | (rowHigh & ~uHigh)
    }
    this.row = row
    this.rowHigh = rowHigh
    return this.query.length - popcount(row) - popcount(rowHigh & this.highTop)
  }

  /** Clears the query's codes from the tables and lends them to the next query. */
  release(): void {
    const { low, high } = this.masks
    for (const code of this.symbols) {
      if (code < 0) continue
      low[code] = 0
      high[code] = 0
    }
    idle = this.masks
  }
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number
}
