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

describe('the index against a full scan (threshold 85, every query of the OFAC fixtures)', () => {
  const queries = [...new Set(loadOfacFixtures().map((f) => f.query))]
  const compare = (subject: SanctionsIndex) => {
    let found = 0
    let expected = 0
    const wrong: string[] = []
    for (const name of queries) {
      const linear = new Map(
        subject.searchLinear({ name, threshold: 85, limit: 5000 }).map((r) => [r.id, r.score]),
      )
      const indexed = subject.search({ name, threshold: 85, limit: 5000 })
      expected += linear.size
      for (const hit of indexed) {
        if (linear.get(hit.id) === hit.score) found += 1
        else wrong.push(`${name}: ${hit.matchedName}`)
      }
    }
    return { recall: found / expected, wrong }
  }

  it.each([
    ['2021', index],
    ['2024', index2024],
  ] as const)(
    'on the %s list: every indexed hit is a full-scan hit with the same score, and recall is ≥ 98%%',
    (_year, subject) => {
      const { recall, wrong } = compare(subject)
      expect(wrong).toEqual([])
      expect(recall).toBeGreaterThanOrEqual(0.98)
    },
  )
})
