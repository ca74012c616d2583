import { jaroWinkler, jaroWinklerAtLeast } from '../src/matching/jaro-winkler'
import { jaroWinklerBound, minJaroWinklerMatches, winklerPrefix } from '../src/matching/jaro-winkler-bound'
import { CodesLcs } from '../src/matching/lcs-codes'
import { lcsLengthWith } from '../src/matching/lcs-length'
import { letterProfile, sharedLetters, countLetters } from '../src/matching/letter-counts'
import { selectTop } from '../src/screening/rank-hits'
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

  it('CodesLcs gives the same lengths from a range of UTF-16 codes, for queries of up to 64 characters', () => {
    for (const [a, b] of pairs) {
      const lcs = CodesLcs.of(a)
      if (!lcs) {
        expect(a.length).toBeGreaterThan(64)
        continue
      }
      const codes = Uint16Array.from(`XY${b}Z`, (c) => c.charCodeAt(0))
      expect([a, b, lcs.length(codes, 2, 2 + b.length)]).toEqual([a, b, lcsByTable(a, b)])
      lcs.release()
    }
  })

  it('CodesLcs.reaches(need) tells whether the LCS is at least need, for every need around it', () => {
    for (const [a, b] of pairs) {
      const lcs = CodesLcs.of(a)
      if (!lcs) continue
      const codes = Uint16Array.from(`XY${b}Z`, (c) => c.charCodeAt(0))
      const exact = lcsByTable(a, b)
      for (let need = -1; need <= Math.max(a.length, b.length) + 1; need += 1)
        expect([a, b, need, lcs.reaches(codes, 2, 2 + b.length, need)]).toEqual([a, b, need, exact >= need])
      lcs.release()
    }
  })

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
