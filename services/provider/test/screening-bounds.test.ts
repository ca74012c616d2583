import { jaro, jaroAtLeast, jaroOf, jaroWinkler, winklerPrefix } from '../src/matching/jaro-winkler'
import {
  jaroWinklerAtLeast,
  jaroWinklerBound,
  minJaroWinklerMatches,
} from '../src/screening/jaro-winkler-index/jaro-winkler-bound'
import { lcsLengthWith } from '../src/screening/jaro-winkler-index/lcs-length'
import { letterProfile, sharedLetters, countLetters } from '../src/screening/jaro-winkler-index/letter-counts'
import { BATCH, MAX_REACH_QUERY } from '../src/screening/wasm-kernels/kernel-layout'
import { WasmKernels } from '../src/screening/wasm-kernels/wasm-kernels'
import { selectTop } from '../src/screening/rank-hits'
import { spareByLength } from '../src/screening/jaro-winkler-index/spare-by-length'
import { soundex } from '../src/matching/soundex'
import { seededRandom } from '../scripts/sample-generator'

// Random non-empty pairs from a small alphabet, so that they share letters, subsequences and prefixes often.
function randomPairs(count: number, seed: number): [string, string][] {
  const random = seededRandom(seed)
  const alphabet = 'AEIOUNRST Ü'
  const text = () =>
    Array.from(
      { length: 1 + Math.floor(random() * 70) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join('')
  return Array.from({ length: count }, () => {
    const a = text()
    // Half the pairs are near-copies: the interesting side of every bound.
    return [a, random() < 0.5 ? text() : `${a.replace(/[AE]/, 'O').slice(0, a.length - 2)}N`]
  })
}

function lcsByTable(a: string, b: string): number {
  const row = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = 0
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] as number
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] as number)
      diagonal = above
    }
  }
  return row[b.length] as number
}

// One-byte symbols: the code's rank among the alphabet's (randomPairs' alphabet has 11).
const SYMBOLS = new Map([...'AEIOUNRST ÜXYZ'].map((char, rank) => [char.charCodeAt(0), rank]))
const symbolOf = (code: number, wide: boolean) => (wide ? code : (SYMBOLS.get(code) as number))

/** A kernel holding `texts` in order, as `LackCounter` lays them out. */
function kernelOf(texts: string[], wide: boolean): WasmKernels {
  const codeUnits = texts.reduce((sum, text) => sum + text.length, 0)
  const kernel = new WasmKernels({ positions: texts.length, codeUnits, wide, bitWords: 4 })
  texts.forEach((text, position) => {
    const start = kernel.starts[position] as number
    kernel.starts[position + 1] = start + text.length
    for (let i = 0; i < text.length; i += 1) kernel.codes[start + i] = symbolOf(text.charCodeAt(i), wide)
  })
  return kernel
}

/** Sets (bit 1) or clears (bit 0) the query's positions in the kernel's masks. */
function setMasks(kernel: WasmKernels, query: string, wide: boolean, bit: 0 | 1): void {
  for (let i = 0; i < query.length; i += 1) {
    const at = 2 * symbolOf(query.charCodeAt(i), wide) + (i >>> 5)
    kernel.masks[at] = bit ? (kernel.masks[at] as number) | (1 << (i & 31)) : 0
  }
}

describe('Soundex (American, the National Archives rules)', () => {
  it.each([
    ['ROBERT', 'R163'],
    ['RUPERT', 'R163'],
    ['ASHCRAFT', 'A261'],
    ['TYMCZAK', 'T522'],
    ['PFISTER', 'P236'],
    ['HONEYMAN', 'H555'],
    ['PUTIN', 'P350'],
    ['A', 'A000'],
  ])('soundex(%s) is %s', (name, code) => {
    expect(soundex(name)).toBe(code)
  })
})

describe('the bounds the index prunes with never rule out a pair that reaches the floor', () => {
  const pairs = randomPairs(4000, 11)

  it('lcsLengthWith(a)(b) equals the textbook table, one word or several, ASCII or not', () => {
    for (const [a, b] of pairs) expect([a, b, lcsLengthWith(a)(b)]).toEqual([a, b, lcsByTable(a, b)])
  })

  it.each([false, true])(
    'WasmKernels.reach tells whether the LCS reaches each need around it, a batch at a time, for queries of up to 64 characters, and leaves out the strings of the excluded initial (two-byte symbols: %s)',
    (wide) => {
      const excluded = 'N'
      const texts = pairs.map(([, b]) => b)
      const kernel = kernelOf(texts, wide)
      const got: [string, string, number, boolean][] = []
      const expected: typeof got = []
      pairs.forEach(([a], i) => {
        if (a.length > MAX_REACH_QUERY) return
        // Its own pair's text and (every 40th) the next ones, read in one call, each asked exact − 1, exact and
        // exact + 1.
        const positions = Array.from(
          { length: i % 40 === 0 ? Math.floor(BATCH / 3) : 1 },
          (_, t) => (i + t) % texts.length,
        )
        const items = positions.flatMap((position) => {
          const exact = lcsByTable(a, texts[position] as string)
          return [-1, 0, 1].map((step) => ({ position, exact, need: exact + step }))
        })
        items.forEach(({ position, need }, k) =>
          kernel.batch.set(
            [kernel.starts[position] as number, kernel.starts[position + 1] as number, need],
            3 * k,
          ),
        )
        setMasks(kernel, a, wide, 1)
        kernel.reach(items.length, a.length, symbolOf(excluded.charCodeAt(0), wide))
        setMasks(kernel, a, wide, 0)
        items.forEach(({ position, need }, k) => {
          const text = texts[position] as string
          got.push([a, text, need, (kernel.batch[3 * k + 2] as number) >= need])
          // A left-out string reaches no need a real one has (0 or more).
          const reaches = text.startsWith(excluded) ? need < 0 : (items[k]?.exact as number) >= need
          expected.push([a, text, need, reaches])
        })
      })
      expect(got).toEqual(expected)
      expect(got.filter(([, text]) => text.startsWith(excluded)).length).toBeGreaterThan(100)
    },
  )

  it.each([false, true])(
    'WasmKernels.jaro counts the matches and transpositions jaroAtLeast does, to the last bit, and gives up where it does (two-byte symbols: %s)',
    (wide) => {
      const usable = pairs.filter(
        ([a, b]) => a.length <= MAX_REACH_QUERY && b.length <= MAX_REACH_QUERY && b !== '',
      )
      const kernel = kernelOf(
        usable.map(([, b]) => b),
        wide,
      )
      const got: [string, string, number, number][] = []
      const expected: typeof got = []
      usable.forEach(([a, b], position) => {
        kernel.query.set(Array.from(a, (char) => symbolOf(char.charCodeAt(0), wide)))
        const start = kernel.starts[position] as number
        const all = kernel.jaro(start, b.length, a.length, 0)
        const matches = all & 0xff
        // Asking for as many matches as there are, and for one more (not of equal strings, which jaroAtLeast
        // answers 1 before counting: the index never asks more matches than the shorter string has).
        for (const least of a === b ? [0, matches] : [0, matches, matches + 1]) {
          const counts = kernel.jaro(start, b.length, a.length, least)
          got.push([a, b, least, counts < 0 ? -1 : jaroOf(counts & 0xff, counts >>> 8, a.length, b.length)])
          expected.push([a, b, least, jaroAtLeast(a, b, least)])
        }
        expect([a, b, jaroOf(matches, all >>> 8, a.length, b.length)]).toEqual([a, b, jaro(a, b)])
      })
      expect(got).toEqual(expected)
      expect(got.filter(([, , , similarity]) => similarity === -1).length).toBeGreaterThan(1000)
    },
  )

  it('jaroWinklerBound is at least jaroWinkler, from shared letters, the common subsequence and the prefix', () => {
    for (const [a, b] of pairs) {
      const counts = new Uint8Array(32)
      countLetters(b, counts, 0)
      const bound = jaroWinklerBound(
        a.length,
        b.length,
        winklerPrefix(a, b),
        sharedLetters(letterProfile(a), counts, 0),
        lcsLengthWith(a)(b),
      )
      expect(bound + 1e-9).toBeGreaterThanOrEqual(jaroWinkler(a, b))
    }
  })

  it.each([0.5, 0.7, 0.845, 0.9])(
    'at floor %d: minJaroWinklerMatches never exceeds what a reaching pair shares, and jaroWinklerAtLeast is exact above it',
    (floor) => {
      for (const [a, b] of pairs) {
        const value = jaroWinkler(a, b)
        const counts = new Uint8Array(32)
        countLetters(b, counts, 0)
        if (value >= floor) {
          const needed = minJaroWinklerMatches(a.length, b.length, winklerPrefix(a, b), floor)
          expect(sharedLetters(letterProfile(a), counts, 0)).toBeGreaterThanOrEqual(needed)
          expect(jaroWinklerAtLeast(a, b, floor)).toBe(value)
        } else expect(jaroWinklerAtLeast(a, b, floor)).toBe(-1)
      }
    },
  )
})

/** `spareByLength` as it was: a table over every length up to `maxLength`. */
function spareOverEveryLength(a: number, floor: number, prefix: number, maxLength: number): Int32Array {
  const spare = new Int32Array(maxLength + 2).fill(-1)
  for (let b = 1; b <= maxLength; b += 1) {
    const needed = minJaroWinklerMatches(a, b, prefix, floor)
    if (needed <= Math.min(a, b)) spare[b] = a - needed
  }
  for (let b = maxLength; b >= 1; b -= 1) spare[b] = Math.max(spare[b] as number, spare[b + 1] as number)
  return spare
}

describe('spareByLength: what a string of each length may lack of a query', () => {
  it.each([0, 0.5, 0.75, 0.8, 0.81, 0.845, 0.9, 0.995])(
    'at floor %d, equals the table over every length on each length it holds, and no length past it can reach the floor; above 0.8 it is sized by the query (about 4.5 times it at 0.845), not by the longest string indexed',
    (floor) => {
      const maxLength = 5000
      for (const a of [1, 2, 5, 12, 30, 64, 256])
        for (const prefix of [0, 1, 2, 3, 4]) {
          const { spare, shortest, longest } = spareByLength(a, floor, prefix, maxLength)
          const every = spareOverEveryLength(a, floor, prefix, maxLength)
          expect([a, prefix, Array.from(spare.subarray(0, spare.length - 1))]).toEqual([
            a,
            prefix,
            Array.from(every.subarray(0, spare.length - 1)),
          ])
          expect(every.subarray(spare.length - 1).every((value) => value === -1)).toBe(true)
          const reaches = (b: number) => minJaroWinklerMatches(a, b, prefix, floor) <= Math.min(a, b)
          const first = Array.from({ length: maxLength }, (_, i) => i + 1).find(reaches)
          expect(shortest).toBe(first ?? 0)
          expect(longest).toBeLessThanOrEqual(spare.length - 2)
          if (floor >= 0.845) expect(spare.length).toBeLessThanOrEqual(Math.ceil(4.5 * a) + 3)
          if (floor <= 0.8) expect(spare.length).toBe(maxLength + 2)
        }
    },
  )
})

describe('selectTop(items, k, order)', () => {
  it('returns the first k in order, as sorting all would, ties included', () => {
    const random = seededRandom(5)
    for (let round = 0; round < 200; round += 1) {
      const items = Array.from({ length: Math.floor(random() * 60) }, () => Math.floor(random() * 20))
      const k = Math.floor(random() * 25)
      const order = (x: number, y: number) => y - x
      expect(selectTop([...items], k, order)).toEqual([...items].sort(order).slice(0, k))
    }
  })
})
