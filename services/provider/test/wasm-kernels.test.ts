import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileWat } from '../scripts/compile-wat'
import { seededRandom } from '../scripts/sample-generator'
import { KERNELS_WASM } from '../src/screening/wasm-kernels/kernels-wasm'
import {
  KERNEL_LAYOUT,
  PLANE_WORDS,
  PLANES,
  RECORD_PLANES_WORD,
  RECORD_SURVIVORS_WORD,
  RECORDS,
} from '../src/screening/wasm-kernels/kernel-layout'
import { WasmKernels } from '../src/screening/wasm-kernels/wasm-kernels'

const WAT = join(__dirname, '../src/screening/wasm-kernels/kernels.wat')

/** A layout expression of kernels.wat's comments (`RECORD_PLANES + 2 * PLANE_BYTES`): sums of products. */
function layoutValue(expression: string): number {
  const factor = (text: string) => {
    const value = /^\d+$/.test(text) ? Number(text) : KERNEL_LAYOUT[text]
    if (value === undefined) throw new Error(`kernels.wat names ${text}, which kernel-layout.ts does not`)
    return value
  }
  return expression
    .split('+')
    .map((term) => term.split('*').reduce((product, text) => product * factor(text.trim()), 1))
    .reduce((sum, value) => sum + value, 0)
}

/** The number of set bits of a 32-bit word, one bit at a time. */
function popcount(word: number): number {
  let count = 0
  for (let bit = 0; bit < 32; bit += 1) count += (word >>> bit) & 1
  return count
}

describe('the WebAssembly kernels of the Jaro-Winkler index', () => {
  it('are kernels.wat as compiled now (rerun `pnpm --filter @pf/provider wasm` after editing it)', async () => {
    expect(await compileWat(WAT)).toBe(KERNELS_WASM)
  })

  it("hold the memory layout kernel-layout.ts states: every literal kernels.wat marks has the table's value", () => {
    const marks = [...readFileSync(WAT, 'utf8').matchAll(/(?:i32\.const |offset=)(\d+) \(; ([^;]+) ;\)/g)]
    const got = marks.map(([, literal, expression]) => [expression, Number(literal)])
    expect(got).toEqual(marks.map(([, , expression]) => [expression, layoutValue(expression as string)]))
    const named = new Set(marks.flatMap(([, , expression]) => (expression as string).match(/[A-Z_]+/g) ?? []))
    for (const name of ['RECORDS_FROM', 'RECORD_SHIFT', 'RECORD_SURVIVORS', 'RECORD_PLANES', 'PLANE_BYTES'])
      expect(named).toContain(name)
    for (const name of ['TRIPLE_BYTES', 'TRIPLE_END', 'TRIPLE_NEED', 'TOUCHED_AT'])
      expect(named).toContain(name)
  })

  it('scan keeps exactly the strings that lack no more than allowed of the query tokens, each with its count, as a plain popcount of the tokens it lacks says, over as many calls as its records need', () => {
    const random = seededRandom(37)
    const blocks = 100
    const wordsPerRow = 4 * blocks
    const maxTokens = 75
    const kernel = new WasmKernels({
      positions: 1,
      codeUnits: 1,
      wide: false,
      bitWords: maxTokens * wordsPerRow,
    })
    const offsets = Int32Array.from({ length: maxTokens }, (_, k) => k * wordsPerRow)
    let kept = 0
    let left = 0
    let calls = 0
    for (let trial = 0; trial < 16; trial += 1) {
      // Odd and even token counts (the kernel adds two at a time), none, one, and more than 63 lacks can count.
      const tokens = [0, 1, 2, 7, 8, 33, 64, maxTokens][trial % 8] as number
      const allowed = Math.floor(random() * (Math.min(tokens, 62) + 1))
      const start = 63 - allowed
      // Per row, how often a string holds the token: 1/2, 3/4, 7/8 or 15/16 (one to four random words or-ed).
      for (let k = 0; k < tokens; k += 1) {
        const words = 1 + Math.floor(random() * 4)
        for (let w = 0; w < wordsPerRow; w += 1) {
          let word = 0
          for (let n = 0; n < words; n += 1) word |= Math.floor(random() * 2 ** 32)
          kernel.bits[(offsets[k] as number) + w] = word
        }
      }
      kernel.setRows(offsets, tokens)
      const from = trial % 3 === 0 ? 0 : Math.floor(random() * 20)
      const to = trial % 3 === 0 ? blocks : blocks - Math.floor(random() * 20)

      // Each string's lacked tokens as a bitset, counted by popcount.
      const expected: [number, number][] = []
      for (let string = from * 128; string < to * 128; string += 1) {
        const lackedWords = new Int32Array(Math.ceil(maxTokens / 32))
        const word = string >>> 5
        for (let k = 0; k < tokens; k += 1)
          if ((((kernel.bits[(offsets[k] as number) + word] as number) >>> (string & 31)) & 1) === 0)
            lackedWords[k >>> 5] = (lackedWords[k >>> 5] as number) | (1 << (k & 31))
        const lacked = lackedWords.reduce((sum, bits) => sum + popcount(bits), 0)
        if (lacked <= allowed) expected.push([string, start + lacked])
        else left += 1
      }

      const got: [number, number][] = []
      for (let at = from; at < to;) {
        const stop = kernel.scan(tokens, at, to, start)
        calls += 1
        expect(kernel.recordCount()).toBeLessThanOrEqual(RECORDS)
        // It stops early only with its records full.
        if (stop < to) expect(kernel.recordCount()).toBe(RECORDS)
        for (let r = 0; r < kernel.recordCount(); r += 1) {
          const record = kernel.recordAt(r)
          const block = kernel.words[record] as number
          for (let lane = 0; lane < 4; lane += 1) {
            const survivors = kernel.words[record + RECORD_SURVIVORS_WORD + lane] as number
            for (let bit = 0; bit < 32; bit += 1) {
              if (((survivors >>> bit) & 1) === 0) continue
              let counter = 0
              for (let plane = 0; plane < PLANES; plane += 1) {
                const lanes = kernel.words[record + RECORD_PLANES_WORD + plane * PLANE_WORDS + lane] as number
                counter |= ((lanes >>> bit) & 1) << plane
              }
              got.push([block * 128 + lane * 32 + bit, counter])
            }
          }
        }
        at = stop
      }
      expect({ trial, tokens, allowed, kept: got }).toEqual({ trial, tokens, allowed, kept: expected })
      kept += expected.length
    }
    // The trials met both sides of the rule, and records filled up (more calls than trials).
    expect(kept).toBeGreaterThan(0)
    expect(left).toBeGreaterThan(0)
    expect(calls).toBeGreaterThan(16)
  })
})
