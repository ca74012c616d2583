import { LACK_COUNT_WASM } from './lack-count-wasm'

/** Blocks with a survivor written per `scan` call (lack-count.wat): 8 KB of records. */
export const RECORDS = 64
/** A record's size in 32-bit words: block, survivors, six counter planes, each 16 bytes. */
export const RECORD_WORDS = 32
const OUT = 0
/** Where the record count, the records, the query's row offsets and the bit rows sit in the memory (bytes). */
const ROWS_AT = OUT + 16 + RECORDS * RECORD_WORDS * 4
const BITS_AT = ROWS_AT + 4096
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

/**
 * One instance of lack-count.wat with its own memory: `bits` (the rows, 4 words per block of 128 strings) and
 * `words`, the whole memory as 32-bit words, where `scan`'s records are read (record r at `recordAt(r)`).
 */
export class LackCountKernel {
  readonly bits: Int32Array
  readonly words: Int32Array
  private readonly run: (...args: number[]) => number

  constructor(bitWords: number) {
    compiled ??= new WebAssembly.Module(Buffer.from(LACK_COUNT_WASM, 'base64'))
    const instance = new WebAssembly.Instance(compiled)
    const memory = instance.exports.memory as WasmMemory
    const bytes = BITS_AT + bitWords * 4
    memory.grow(Math.max(0, Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE))
    this.words = new Int32Array(memory.buffer)
    this.bits = new Int32Array(memory.buffer, BITS_AT, bitWords)
    this.run = instance.exports.scan as (...args: number[]) => number
  }

  /** Sets the query's tokens: `offsets[k]` is the word where token k's row starts in `bits`. */
  setRows(offsets: Int32Array, count: number): void {
    for (let k = 0; k < count; k += 1) this.words[ROWS_AT / 4 + k] = BITS_AT + (offsets[k] as number) * 4
  }

  /**
   * Counts blocks [from, to) with the first `count` rows set, counters starting at `start`: records the blocks
   * with a survivor (at most `RECORDS`; `recordCount()` of them) and returns the block it stopped at.
   */
  scan(count: number, from: number, to: number, start: number): number {
    return this.run(ROWS_AT, count, from, to, start, OUT, RECORDS)
  }

  recordCount(): number {
    return this.words[OUT / 4] as number
  }

  /** The word index of record r: block at +0, survivor lanes at +4, plane p's lanes at +8 + 4p. */
  recordAt(r: number): number {
    return (OUT + 16) / 4 + r * RECORD_WORDS
  }
}
