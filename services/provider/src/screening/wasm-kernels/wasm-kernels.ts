import { KERNELS_WASM } from './kernels-wasm'
import {
  BATCH,
  BATCH_AT,
  MASKS_AT,
  MAX_REACH_QUERY,
  OUT,
  RECORD_SHIFT,
  RECORDS,
  RECORDS_FROM,
  ROWS_AT,
  TRIPLE_BYTES,
} from './kernel-layout'

const PAGE = 65536

// @types/node 20 declares no WebAssembly (the DOM library does): the little used here.
interface WasmMemory {
  buffer: ArrayBuffer
  grow(pages: number): number
}
interface WasmInstance {
  exports: Record<string, unknown>
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => WasmInstance
}

let compiled: object | undefined

/** What a kernel holds: its strings' count and characters, and its bit rows. */
export interface KernelSizes {
  positions: number
  codeUnits: number
  /** Two bytes a symbol rather than one. */
  wide: boolean
  bitWords: number
}

/**
 * One instance of kernels.wat with its own memory, laid out as kernel-layout.ts states: the views below are
 * where `LackCounter` writes its layout, and `words` (the whole memory as 32-bit words) is where the results of
 * `scan` (record r at `recordAt(r)`) and `reach` (`batch`) are read. Its three kernels: `scan` counts the query's
 * letters each string lacks, 128 strings at a time; `reach` tells whether a string's LCS with the query reaches
 * a need; `jaro` counts their Jaro matches and transpositions.
 */
export class WasmKernels {
  readonly words: Int32Array
  readonly bits: Int32Array
  readonly starts: Int32Array
  readonly codes: Uint8Array | Uint16Array
  /** Two 32-bit words per symbol (low, high): the query's positions holding it. */
  readonly masks: Int32Array
  /** (start, end, need) triples for `reach`, which writes over each need whether the LCS reaches it. */
  readonly batch: Int32Array
  /** The query's symbols for `jaro` (−1: in no string), up to `MAX_REACH_QUERY`. */
  readonly query: Int32Array
  private readonly wide: number
  private readonly scanBlocks: (...args: number[]) => number
  private readonly reachAll: (...args: number[]) => void
  private readonly jaroCounts: (...args: number[]) => number
  private readonly codesAt: number
  /** `jaro`'s positions by symbol (zero between calls) and its scratch of matched symbols. */
  private readonly positionsAt: number
  private readonly matchedAt: number

  constructor({ positions, codeUnits, wide, bitWords }: KernelSizes) {
    compiled ??= new WebAssembly.Module(Buffer.from(KERNELS_WASM, 'base64'))
    const instance = new WebAssembly.Instance(compiled)
    const memory = instance.exports.memory as WasmMemory
    this.wide = wide ? 1 : 0
    const symbolsSize = (wide ? 65536 : 256) * 8
    this.positionsAt = MASKS_AT + symbolsSize
    const queryAt = this.positionsAt + symbolsSize
    this.matchedAt = queryAt + MAX_REACH_QUERY * 4
    const startsAt = this.matchedAt + MAX_REACH_QUERY * 4
    this.codesAt = startsAt + (positions + 1) * 4
    const bitsAt = Math.ceil((this.codesAt + (codeUnits << this.wide)) / 16) * 16
    const bytes = bitsAt + bitWords * 4
    memory.grow(Math.max(0, Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE))
    const { buffer } = memory
    this.words = new Int32Array(buffer)
    this.bits = new Int32Array(buffer, bitsAt, bitWords)
    this.starts = new Int32Array(buffer, startsAt, positions + 1)
    this.codes = wide
      ? new Uint16Array(buffer, this.codesAt, codeUnits)
      : new Uint8Array(buffer, this.codesAt, codeUnits)
    this.masks = new Int32Array(buffer, MASKS_AT, (wide ? 65536 : 256) * 2)
    this.batch = new Int32Array(buffer, BATCH_AT, (BATCH * TRIPLE_BYTES) / 4)
    this.query = new Int32Array(buffer, queryAt, MAX_REACH_QUERY)
    this.jaroCounts = instance.exports.jaro as (...args: number[]) => number
    this.scanBlocks = instance.exports.scan as (...args: number[]) => number
    this.reachAll = instance.exports.reach as (...args: number[]) => void
  }

  /** Sets the query's tokens: `offsets[k]` is the word where token k's row starts in `bits`. */
  setRows(offsets: Int32Array, count: number): void {
    const at = this.bits.byteOffset
    for (let k = 0; k < count; k += 1) this.words[ROWS_AT / 4 + k] = at + (offsets[k] as number) * 4
  }

  /**
   * Counts blocks [from, to) with the first `count` rows set, counters starting at `start`: records the blocks
   * with a survivor (at most `RECORDS`; `recordCount()` of them) and returns the block it stopped at.
   */
  scan(count: number, from: number, to: number, start: number): number {
    return this.scanBlocks(ROWS_AT, count, from, to, start, OUT, RECORDS)
  }

  recordCount(): number {
    return this.words[OUT / 4] as number
  }

  /** The word index of record r (its fields: `RECORD_SURVIVORS`, `RECORD_PLANES` and `PLANE_BYTES`, in bytes). */
  recordAt(r: number): number {
    return (OUT + RECORDS_FROM + (r << RECORD_SHIFT)) / 4
  }

  /**
   * Whether the LCS of the query of `a` characters (its `masks` set) with the string `codes[start .. end)` of each
   * of the first `count` (start, end, need) triples reaches its need: need is overwritten by a number at least
   * need exactly when it does, and by −1 for a string starting with the symbol `excluded` (−1: none).
   */
  reach(count: number, a: number, excluded = -1): void {
    this.reachAll(BATCH_AT, count, MASKS_AT, this.codesAt, this.wide, a, excluded)
  }

  /**
   * Jaro's matches and transpositions (`jaroAtLeast`'s) of the query of `a` symbols (`query` set) with the string
   * `codes[start .. start + length)`, both at most 64 long: matches + 256 × transpositions, or −1 as soon as
   * fewer than `least` can still match.
   */
  jaro(start: number, length: number, a: number, least: number): number {
    return this.jaroCounts(
      start,
      start + length,
      this.query.byteOffset,
      a,
      this.positionsAt,
      this.matchedAt,
      this.codesAt,
      this.wide,
      least,
    )
  }
}
