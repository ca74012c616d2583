import { costedPlan, defaultPlan } from '../src/companies/postgres/company-search-plan'
import { WordStatistics } from '../src/companies/postgres/company-word-statistics'

// 10 M companies: "page" starts words of 2 %, "marketing" of 2 %, "zogearsta" of 0.05 %; the other words are
// rarer than the least listed lexeme (0.02 %); a tenth of the companies are Dutch.
const statistics = new WordStatistics([
  {
    records: 10_000_000,
    name_words: {
      words: ['marketing', 'page', 'pagebo', 'zogearsta'],
      freqs: [0.02, 0.015, 0.005, 0.0005],
      minFreq: 0.0002,
    },
    industry_words: { words: ['software'], freqs: [0.05], minFreq: 0.01 },
    countries: new Map([['NL', 0.1]]),
  },
])

const words = (name: string[], industry: string[] = []) => ({ name_words: name, industry_words: industry })

describe('costedPlan: the plan of a search from the word statistics', () => {
  it('sums the frequencies of the listed lexemes a prefix starts, at least half the least listed', () => {
    expect(statistics.prefixShare('name_words', 'page')).toBeCloseTo(0.02)
    expect(statistics.prefixShare('name_words', 'kolber')).toBeCloseTo(0.0001)
    expect(statistics.countryShare('NL')).toBe(0.1)
  })

  it('looks up a rare word in the index and only tests the common one on the rows it finds', () => {
    const plan = costedPlan(words(['zogearsta', 'marketing']), undefined, 101, statistics)
    expect(plan).toEqual({ indexed: words(['zogearsta']), scan: 'bitmap' })
  })

  it('looks up a word found in few companies, even alone', () => {
    expect(costedPlan(words(['kolber']), 'NL', 101, statistics).scan).toBe('bitmap')
  })

  it('walks the companies in dataset order when every word is common (the first matches come early)', () => {
    const plan = costedPlan(words(['page', 'marketing']), undefined, 101, statistics)
    expect(plan).toEqual({ indexed: words([]), scan: 'ordinal' })
  })

  it('never looks up a one- or two-letter word when a longer one is there', () => {
    const plan = costedPlan(words(['kolber', 'b', 'v']), undefined, 101, statistics)
    expect(plan.indexed).toEqual(words(['kolber']))
  })

  it('without statistics, looks up every word of three letters or more and lets PostgreSQL choose', () => {
    expect(defaultPlan(words(['kolber', 'b'], ['software']))).toEqual({
      indexed: words(['kolber'], ['software']),
      scan: 'planner',
    })
    expect(defaultPlan(words(['ab']))).toEqual({ indexed: words(['ab']), scan: 'planner' })
  })
})
