import type { Company } from '../src/datasets/records'
import { CompaniesIndex } from '../src/companies/companies-index'
import type { CompaniesQuery } from '../src/companies/company-store'
import { countryName } from '../src/datasets/normalize-country'
import { generateCompanies, seededRandom } from '../scripts/sample-generator'
import { percentile, round, time } from './stats'

const RECORDS = 1_000_000

/** Queries like a platform user's: a name or a prefix, sometimes a country or an industry word, or both. */
function companyQueries(records: Company[], count: number): CompaniesQuery[] {
  const random = seededRandom(11)
  const countries = ['United Kingdom', 'DE', 'usa', 'France', 'NLD', 'Italy', 'Spain']
  const industries = ['software', 'banks', 'hotels', 'petroleum', 'insurance', 'trucking']
  return Array.from({ length: count }, () => {
    const words = records[Math.floor(random() * records.length)]!.name.split(' ')
    const roll = random()
    const name =
      roll < 0.3 ? words[0]!.slice(0, 3) : roll < 0.7 ? words.slice(0, 2).join(' ') : words.join(' ')
    return {
      name: random() < 0.9 ? name : null,
      country: random() < 0.4 ? countries[Math.floor(random() * countries.length)] : null,
      industry: random() < 0.3 ? industries[Math.floor(random() * industries.length)] : null,
      limit: 100,
    }
  })
}

/** Companies search over one million generated records: build time, p50/p95 per query, process RSS. */
export function benchCompanies() {
  const records: Company[] = []
  for (const c of generateCompanies(RECORDS, 3)) {
    records.push({ ...c, countryName: countryName(c.country), source: 'generated' })
  }
  let index!: CompaniesIndex
  const buildMs = time(() => (index = CompaniesIndex.build(records)))
  const queries = companyQueries(records, 2000)
  for (const query of queries.slice(0, 200)) index.search(query) // warm-up
  const times = queries.map((query) => time(() => index.search(query)))
  global.gc?.()
  const rssMb = process.memoryUsage().rss / 1024 / 1024
  return [
    {
      benchmark: `companies index build (${RECORDS} generated records)`,
      metric: 'ms',
      value: Math.round(buildMs),
      target: '',
    },
    {
      benchmark: 'companies query p50 (2000 queries, limit 100)',
      metric: 'ms',
      value: round(percentile(times, 50), 3),
      target: '',
    },
    {
      benchmark: 'companies query p95',
      metric: 'ms',
      value: round(percentile(times, 95), 3),
      target: '<= 5',
    },
    {
      benchmark: 'process RSS with 1M records indexed',
      metric: 'MB',
      value: Math.round(rssMb),
      target: '<= 1024',
    },
  ]
}
