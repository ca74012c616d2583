import { jaroWinkler } from '../src/matching/jaro-winkler'
import { JaroWinklerIndex } from '../src/screening/jaro-winkler-index/jaro-winkler-index'
import { seededRandom } from '../scripts/sample-generator'

// Strings from a small mixed alphabet (Latin, Cyrillic, a space), so that they share letters, subsequences and
// prefixes often; up to 80 characters (one, two and more words of query positions in the LCS) and with letters
// repeated past the 8 occurrences a lack counter tells apart.
function randomStrings(count: number, random: () => number): string[] {
  const alphabet = 'AAAEINRST ДЖ'
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 80) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join(''),
  )
}

/** A near-copy of `text`: a letter changed, dropped or added, the initial changed, or two letters swapped. */
function nearCopy(text: string, random: () => number): string {
  const at = Math.floor(random() * text.length)
  const pick = Math.floor(random() * 5)
  if (pick === 0) return `${text.slice(0, at)}Ж${text.slice(at + 1)}`
  if (pick === 1) return text.slice(0, at) + text.slice(at + 1) || 'A'
  if (pick === 2) return `${text.slice(0, at)}E${text.slice(at)}`
  if (pick === 3) return `T${text.slice(1)}`
  return text.slice(0, at) + text.slice(at + 1, at + 2) + text.slice(at, at + 1) + text.slice(at + 2)
}

function found(index: JaroWinklerIndex, query: string, floor: number, sameInitial: boolean): string[] {
  const hits: string[] = []
  index.forEachAtLeast(
    query,
    floor,
    sameInitial,
    (id, similarity) => hits.push(`${id} ${similarity}`),
    () => {},
  )
  return hits.sort()
}

describe('JaroWinklerIndex.forEachAtLeast finds exactly the strings whose Jaro-Winkler reaches the floor', () => {
  const random = seededRandom(25)
  const strings = randomStrings(1500, random)
  const index = JaroWinklerIndex.build(strings, { acrossInitials: true })
  const queries = [
    ...randomStrings(30, random),
    ...Array.from({ length: 100 }, () => nearCopy(strings[Math.floor(random() * strings.length)]!, random)),
  ]

  it.each([0.7, 0.845, 0.9])('at floor %d, across initials and among those sharing the initial', (floor) => {
    let reaching = 0
    for (const query of queries) {
      const expected = strings
        .map((text, id) => [id, jaroWinkler(query, text)] as const)
        .filter(([, similarity]) => similarity >= floor)
      reaching += expected.length
      expect([query, found(index, query, floor, false)]).toEqual([
        query,
        expected.map(([id, similarity]) => `${id} ${similarity}`).sort(),
      ])
      const sameInitial = expected.filter(([id]) => strings[id]!.charCodeAt(0) === query.charCodeAt(0))
      expect([query, found(index, query, floor, true)]).toEqual([
        query,
        sameInitial.map(([id, similarity]) => `${id} ${similarity}`).sort(),
      ])
    }
    // The near-copies make the check meaningful: many pairs reach the floor.
    expect(reaching).toBeGreaterThan(50)
  })
})
