import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { SanctionsIndex } from '../src/search/sanctions-index'
import { loadOfacFixtures, sharedData } from './support-data'

const index = SanctionsIndex.build(loadOfacCsv(sharedData('ofac-sdn-2021')))
const index2024 = SanctionsIndex.build(loadOfacCsv(sharedData('ofac-sdn-2024')))

describe('sanctions screening on the 2021 SDN list', () => {
  it('finds a listed person from a reordered, misspelt name, with score and matched name (2024 list)', () => {
    const [top] = index2024.search({ name: 'Vladimr Putin', threshold: 85, limit: 5 })
    expect(top).toMatchObject({
      name: 'PUTIN, Vladimir Vladimirovich',
      type: 'individual',
      matchedName: 'PUTIN, Vladimir Vladimirovich',
    })
    expect(top?.score).toBeGreaterThanOrEqual(95)
  })

  it('matches aliases and reports which name matched', () => {
    const [top] = index.search({ name: 'National Bank of Cuba', threshold: 90, limit: 3 })
    expect(top).toMatchObject({
      id: '306',
      name: 'BANCO NACIONAL DE CUBA',
      matchedName: 'NATIONAL BANK OF CUBA',
      score: 100,
    })
  })

  it('ranks by score, keeps one hit per entry, and honours threshold and limit', () => {
    const results = index.search({ name: 'Kim Jong Un', threshold: 80, limit: 25 })
    expect(results).toHaveLength(25)
    expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a))
    expect(new Set(results.map((r) => r.id)).size).toBe(results.length)
    expect(results.every((r) => r.score >= 80)).toBe(true)
  })

  it('filters by the country of the entry addresses, in any spelling', () => {
    const inCuba = index.search({ name: 'Aerocaribbean Airlines', country: 'Cuba', threshold: 85, limit: 50 })
    expect(inCuba.map((r) => r.id)).toContain('36')
    expect(inCuba.every((r) => r.countries.includes('CU'))).toBe(true)
    expect(index.search({ name: 'Aerocaribbean Airlines', country: 'CU', threshold: 85, limit: 50 })).toEqual(
      inCuba,
    )
    // Banco Nacional de Cuba is listed under the Cuba program, but its addresses are in Europe and Asia.
    expect(
      index.search({ name: 'Banco Nacional de Cuba', country: 'Cuba', threshold: 95, limit: 50 }),
    ).toEqual([])
    expect(
      index.search({ name: 'Banco Nacional de Cuba', country: 'Spain', threshold: 95, limit: 50 })[0]?.id,
    ).toBe('306')
  })
})

/** A listed name as screeners write it: misspelt, reordered, a word missing, transliterated, or as listed. */
function generatedQuery(name: string, random: () => number): string {
  const words = name.replace(/,/g, ' ').split(/\s+/).filter(Boolean)
  const pick = Math.floor(random() * 5)
  if (pick === 0 && words.length > 1) words.reverse()
  if (pick === 1 && words.length > 2) words.splice(Math.floor(random() * words.length), 1)
  let text = words.join(' ')
  if (pick === 2 && text.length > 4) {
    const at = 1 + Math.floor(random() * (text.length - 2))
    text = text.slice(0, at) + text.slice(at + 1) // a letter dropped
  }
  if (pick === 3)
    text = text.replace(/KH/gi, 'H').replace(/OU/gi, 'U').replace(/Y/gi, 'I').replace(/E/gi, 'A') // transliteration
  return text
}

describe('the index against a full scan that scores every name and alias with the same scorer', () => {
  const seeded = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const pairs = (subject: SanctionsIndex, name: string, threshold: number) =>
    subject
      .search({ name, threshold, limit: 5000 })
      .map((r) => `${r.id}:${r.score}`)
      .sort()
  const linear = (subject: SanctionsIndex, name: string, threshold: number) =>
    subject
      .searchLinear({ name, threshold, limit: 5000 })
      .map((r) => `${r.id}:${r.score}`)
      .sort()

  it.each([80, 85, 90])(
    'returns exactly the scan hits, with the same scores, at threshold %i (60 queries generated from the 2024 list)',
    (threshold) => {
      const random = seeded(threshold)
      const entries = loadOfacCsv(sharedData('ofac-sdn-2024'))
      for (let i = 0; i < 60; i += 1) {
        const entry = entries[Math.floor(random() * entries.length)]!
        const name = generatedQuery(
          random() < 0.2 && entry.aliases[0] ? entry.aliases[0] : entry.name,
          random,
        )
        expect([name, pairs(index2024, name, threshold)]).toEqual([name, linear(index2024, name, threshold)])
      }
    },
  )

  it('returns exactly the scan hits on every query of the OFAC fixtures (2021 list)', () => {
    for (const name of new Set(loadOfacFixtures().map((f) => f.query)))
      expect([name, pairs(index, name, 85)]).toEqual([name, linear(index, name, 85)])
  })

  it('finds what only the whole-name term lifts over the threshold ("Ns Kantarctic" → NS ANTARCTIC)', () => {
    const hits = index2024.search({ name: 'Ns Kantarctic', threshold: 85, limit: 10 })
    expect(hits.map((h) => h.matchedName)).toContain('NS ANTARCTIC')
  })
})

describe('one folding for every alphabet, and hits that explain themselves', () => {
  it.each([
    ['ÆROCARIBBEAN AIRLINES', 'AEROCARIBBEAN AIRLINES'],
    ['Łaurin Katz', 'KATZ, Laurin'],
    ['KATZ, LAURİN', 'KATZ, Laurin'],
  ])('%s finds %s', (query, listed) => {
    const [top] = index2024.search({ name: query, threshold: 90, limit: 3 })
    expect(top).toMatchObject({ matchedName: listed, score: 100 })
  })

  it('explains a hit: the listed name, the whole-name and per-part scores, the algorithm id', () => {
    const [top] = index2024.search({ name: 'Vladimr Putin', threshold: 85, limit: 1 })
    expect(top?.explanation).toEqual({
      algorithm: 'pf-ofac-jw/2',
      score: top?.score,
      partsScore: expect.any(Number),
      wholeScore: expect.any(Number),
      parts: [
        { query: 'VLADIMR', listed: 'VLADIMIR', score: expect.any(Number) },
        { query: 'PUTIN', listed: 'PUTIN', score: 100 },
      ],
    })
  })
})
