import { loadDatasets } from '../src/datasets/load-datasets'
import { CompaniesIndex } from '../src/companies/companies-index'
import { referenceData } from './support-data'

const index = CompaniesIndex.build(loadDatasets(referenceData('companies-cc0')).companies)

describe('companies search on the CC0 company registers', () => {
  it('matches name words by prefix, case- and accent-insensitively', () => {
    const byPrefix = index.search({ name: 'deutsche ba', limit: 10 })
    expect(byPrefix.map((c) => c.name)).toContain('Deutsche Bahn AG')
    expect(index.search({ name: 'DEUTSCHE BAHN', limit: 10 })).toEqual(
      index.search({ name: 'deutsche bahn', limit: 10 }),
    )
    const accented = index.search({ name: 'société', limit: 50 })
    const plain = index.search({ name: 'societe', limit: 50 })
    expect(accented.length).toBeGreaterThan(0)
    expect(accented).toEqual(plain)
  })

  it.each(['United Kingdom', 'GB', 'gbr', 'England', 'UK'])(
    'finds the London companies for country "%s"',
    (country) => {
      const results = index.search({ country, limit: 5000 })
      expect(results).toHaveLength(1000)
      expect(results.every((c) => c.country === 'GB')).toBe(true)
    },
  )

  it('filters by industry words and combines all filters', () => {
    const banks = index.search({ industry: 'commercial banks', country: 'USA', limit: 100 })
    expect(banks.length).toBeGreaterThan(0)
    expect(banks.every((c) => /commercial bank/i.test(c.industry ?? '') && c.country === 'US')).toBe(true)
    expect(index.search({ name: 'jpmorgan', industry: 'banks', country: 'US', limit: 10 })[0]?.name).toBe(
      'Jpmorgan Chase & CO.',
    )
  })

  it('returns nothing for an unknown country or a word no name has, and honours the limit', () => {
    expect(index.search({ country: 'Narnia', limit: 10 })).toEqual([])
    expect(index.search({ name: 'zzzqqq', limit: 10 })).toEqual([])
    expect(index.search({ limit: 7 })).toHaveLength(7)
    expect(index.search({ name: 'a', limit: 3 })).toHaveLength(3)
  })

  it('gives a company with two words starting with the prefix once ("a": "Amsterdam Advisors")', () => {
    const ids = index.search({ name: 'a', limit: 1000 }).map((c) => c.id)
    expect(ids.length).toBeGreaterThan(100)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('gives the same answer as a linear scan, in dataset order', () => {
    const all = loadDatasets(referenceData('companies-cc0')).companies
    const expected = all.filter((c) => /\bgm/i.test(c.name) && c.country === 'DE').slice(0, 20)
    expect(index.search({ name: 'gm', country: 'Germany', limit: 20 }).map((c) => c.id)).toEqual(
      expected.map((c) => c.id),
    )
  })
})
