import { jaro, jaroAtLeast } from '../src/matching/jaro-winkler'
import { seededRandom } from '../scripts/sample-generator'

/** Jaro as the textbook computes it: each character of a takes the first free equal one in its window of b. */
function jaroByTextbook(a: string, b: string): { similarity: number; matches: number } {
  if (a === b) return { similarity: 1, matches: a.length }
  if (a.length === 0 || b.length === 0) return { similarity: 0, matches: 0 }
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const usedB: boolean[] = []
  const matchedA: string[] = []
  for (let i = 0; i < a.length; i += 1)
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j += 1)
      if (!usedB[j] && a[i] === b[j]) {
        usedB[j] = true
        matchedA.push(a[i] as string)
        break
      }
  const m = matchedA.length
  if (m === 0) return { similarity: 0, matches: 0 }
  // By UTF-16 code unit, as a and b are compared (`[...b]` would split by code point).
  const matchedB = b.split('').filter((_, j) => usedB[j])
  const transpositions = matchedA.filter((char, k) => char !== matchedB[k]).length
  return { similarity: (m / a.length + m / b.length + (m - transpositions / 2) / m) / 3, matches: m }
}

describe('Jaro', () => {
  // Small alphabets (so that windows hold several equal characters), lengths 0 to 90, ASCII, Cyrillic and a
  // character outside the BMP (compared by UTF-16 code unit).
  const random = seededRandom(7)
  const text = () =>
    Array.from({ length: Math.floor(random() * 90) }, () => 'AAEINRST ЖД😀'[Math.floor(random() * 13)]).join(
      '',
    )
  const pairs = Array.from({ length: 6000 }, () => {
    const a = text()
    return [a, random() < 0.5 ? text() : a.slice(1, 60) + a.slice(0, 1)] as const
  })

  it('equals the textbook Jaro to the last bit, and jaroAtLeast gives up exactly when fewer match than asked', () => {
    let gaveUp = 0
    for (const [a, b] of pairs) {
      const { similarity, matches } = jaroByTextbook(a, b)
      expect([a, b, jaro(a, b)]).toEqual([a, b, similarity])
      const least = matches + (random() < 0.5 ? 1 : 0)
      const atLeast = jaroAtLeast(a, b, least)
      if (atLeast === -1) gaveUp += 1
      // Equal or empty strings are answered before any match is counted.
      const counted = a !== b && a !== '' && b !== ''
      expect([a, b, least, atLeast]).toEqual([a, b, least, counted && least > matches ? -1 : similarity])
    }
    expect(gaveUp).toBeGreaterThan(1000)
  })
})
