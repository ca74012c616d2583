import type { Company } from '../datasets/records'
import { tokenize } from './fold-text'
import { normalizeCountry } from './normalize-country'
import { TokenIndex } from './token-index'

export interface CompaniesQuery {
  name?: string | null
  country?: string | null
  industry?: string | null
  limit: number
}

type Filter = { count: number; candidates: () => Iterable<number>; accepts: (record: number) => boolean }

const SORT_LIMIT = 4096

/** Record ids of a posting slice in ascending order: sorted when small, through a bitset when large. */
function* ascending(slice: Int32Array, size: number): Iterable<number> {
  if (slice.length <= SORT_LIMIT) {
    yield* Int32Array.from(slice).sort()
    return
  }
  const bits = new Uint32Array((size >>> 5) + 1)
  for (const record of slice) bits[record >>> 5]! |= 1 << (record & 31)
  for (let word = 0; word < bits.length; word += 1) {
    let value = bits[word] as number
    while (value !== 0) {
      const bit = 31 - Math.clz32(value & -value)
      yield (word << 5) | bit
      value &= value - 1
    }
  }
}

/**
 * Companies search: every word of `name` (and of `industry`) must start a word of the company's name (or
 * industry), case- and accent-insensitively; `country` is compared as an ISO code, whatever its spelling.
 * Results come in dataset order. The most selective filter drives; the others are checked per record.
 */
export class CompaniesIndex {
  private constructor(
    private readonly records: Company[],
    private readonly names: TokenIndex,
    private readonly industries: TokenIndex,
    private readonly byCountry: Map<string, Int32Array>,
  ) {}

  static build(records: Company[]): CompaniesIndex {
    const byCountry = new Map<string, number[]>()
    records.forEach((company, id) => {
      if (!company.country) return
      const ids = byCountry.get(company.country)
      if (ids) ids.push(id)
      else byCountry.set(company.country, [id])
    })
    return new CompaniesIndex(
      records,
      TokenIndex.build(records.map((c) => [...new Set(tokenize(c.name))])),
      TokenIndex.build(records.map((c) => [...new Set(tokenize(c.industry))])),
      new Map([...byCountry].map(([code, ids]) => [code, Int32Array.from(ids)])),
    )
  }

  get size(): number {
    return this.records.length
  }

  search({ name, country, industry, limit }: CompaniesQuery): Company[] {
    const filters: Filter[] = []
    for (const [index, text] of [
      [this.names, name],
      [this.industries, industry],
    ] as const) {
      for (const word of new Set(tokenize(text))) {
        const range = index.prefixRange(word)
        const slice = index.postingSlice(range)
        filters.push({
          count: slice.length,
          candidates: () => (range[1] - range[0] === 1 ? slice : ascending(slice, this.records.length)),
          accepts: (record) => index.recordHas(record, range),
        })
      }
    }
    if (country?.trim()) {
      const code = normalizeCountry(country)
      const ids = (code && this.byCountry.get(code)) || new Int32Array()
      filters.push({
        count: ids.length,
        candidates: () => ids,
        accepts: (record) => this.records[record]?.country === code,
      })
    }
    if (filters.length === 0) return this.records.slice(0, limit)

    filters.sort((a, b) => a.count - b.count)
    const [driver, ...others] = filters as [Filter, ...Filter[]]
    const results: Company[] = []
    if (driver.count === 0) return results
    for (const record of driver.candidates()) {
      if (others.every((filter) => filter.accepts(record))) results.push(this.records[record] as Company)
      if (results.length >= limit) break
    }
    return results
  }
}
