import type { Company } from '../datasets/records'
import { normalizeCountry } from '../datasets/normalize-country'
import { tokenize } from '../matching/fold-text'
import type { CompaniesQuery } from './company-store'
import { TokenIndex } from './token-index'

interface Filter {
  count: number
  /** The records the filter allows (unsorted when it spans several tokens). */
  postings: Int32Array
  /** Calls `visit` with each candidate record in ascending order until it returns false. */
  scan: (visit: (record: number) => boolean) => void
  accepts: (record: number) => boolean
}

const SORT_LIMIT = 4096
/** Above this many driver candidates, intersecting bitsets beats checking candidates one by one. */
const BITSET_LIMIT = 2048

/**
 * Visits the record ids of a posting slice in ascending order, each once: the slice itself when it is one
 * token's (already sorted, no repeats), a sorted copy when small, else through a bitset (linear, no sort).
 */
function scanAscending(
  slice: Int32Array,
  sorted: boolean,
  size: number,
  visit: (record: number) => boolean,
): void {
  if (sorted || slice.length <= SORT_LIMIT) {
    const ordered = sorted ? slice : Int32Array.from(slice).sort()
    // A record with two words of the prefix range is in the slice twice: it is visited once.
    for (let i = 0; i < ordered.length; i += 1)
      if (ordered[i] !== ordered[i - 1] && !visit(ordered[i] as number)) return
    return
  }
  const bits = new Uint32Array((size >>> 5) + 1)
  for (let i = 0; i < slice.length; i += 1) {
    const record = slice[i] as number
    bits[record >>> 5]! |= 1 << (record & 31)
  }
  for (let word = 0; word < bits.length; word += 1) {
    let value = bits[word] as number
    while (value !== 0) {
      const lowest = value & -value
      if (!visit((word << 5) | (31 - Math.clz32(lowest)))) return
      value ^= lowest
    }
  }
}

/**
 * The in-memory index of `MemoryCompanyStore`: every word of `name` (and of `industry`) must start a word of the company's
 * name (or industry), case- and accent-insensitively; `country` is compared as an ISO code, whatever its
 * spelling. Results come in dataset order. The most selective filter drives; the others are checked per record.
 */
export class CompaniesIndex {
  private constructor(
    private readonly records: Company[],
    private readonly names: TokenIndex,
    private readonly industries: TokenIndex,
    private readonly byCountry: Map<string, Int32Array>,
    /** Country of each record as a small number (index in `countryCodes`), for cache-friendly checks. */
    private readonly countryOf: Uint16Array,
    private readonly countryCodes: string[],
  ) {}

  // Reused between searches (they are synchronous): two bitsets of one bit per record.
  private scratch: [Uint32Array, Uint32Array] | undefined

  static build(records: Company[]): CompaniesIndex {
    const byCountry = new Map<string, number[]>()
    const countryCodes = ['']
    const codeIndex = new Map<string, number>()
    const countryOf = new Uint16Array(records.length)
    records.forEach((company, id) => {
      if (!company.country) return
      let code = codeIndex.get(company.country)
      if (code === undefined) {
        code = countryCodes.push(company.country) - 1
        codeIndex.set(company.country, code)
      }
      countryOf[id] = code
      const ids = byCountry.get(company.country)
      if (ids) ids.push(id)
      else byCountry.set(company.country, [id])
    })
    return new CompaniesIndex(
      records,
      TokenIndex.build(records.map((c) => [...new Set(tokenize(c.name))])),
      TokenIndex.build(records.map((c) => [...new Set(tokenize(c.industry))])),
      new Map([...byCountry].map(([code, ids]) => [code, Int32Array.from(ids)])),
      countryOf,
      countryCodes,
    )
  }

  get size(): number {
    return this.records.length
  }

  search({ name, country, industry, limit }: CompaniesQuery): Company[] {
    const size = this.records.length
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
          postings: slice,
          scan: (visit) => scanAscending(slice, range[1] - range[0] === 1, size, visit),
          accepts: (record) => index.recordHas(record, range),
        })
      }
    }
    if (country?.trim()) {
      const code = normalizeCountry(country)
      const ids = (code && this.byCountry.get(code)) || new Int32Array()
      const wanted = code ? this.countryCodes.indexOf(code) : -1
      filters.push({
        count: ids.length,
        postings: ids,
        scan: (visit) => scanAscending(ids, true, size, visit),
        accepts: (record) => this.countryOf[record] === wanted,
      })
    }
    if (filters.length === 0) return this.records.slice(0, limit)

    // The most selective filter drives; the others are checked most selective first.
    filters.sort((a, b) => a.count - b.count)
    const [driver, ...others] = filters as [Filter, ...Filter[]]
    const results: Company[] = []
    if (driver.count === 0) return results
    if (driver.count > BITSET_LIMIT && others.length > 0) return this.intersect(filters, limit)
    driver.scan((record) => {
      for (const filter of others) if (!filter.accepts(record)) return true
      results.push(this.records[record] as Company)
      return results.length < limit
    })
    return results
  }

  /** AND of the filters' bitsets, then the first `limit` records in order. */
  private intersect(filters: Filter[], limit: number): Company[] {
    const words = (this.records.length >>> 5) + 1
    this.scratch ??= [new Uint32Array(words), new Uint32Array(words)]
    const [result, other] = this.scratch
    const fill = (bits: Uint32Array, postings: Int32Array) => {
      bits.fill(0)
      for (let i = 0; i < postings.length; i += 1) {
        const record = postings[i] as number
        bits[record >>> 5]! |= 1 << (record & 31)
      }
    }
    fill(result, (filters[0] as Filter).postings)
    for (const filter of filters.slice(1)) {
      fill(other, filter.postings)
      for (let word = 0; word < words; word += 1) result[word]! &= other[word] as number
    }
    const found: Company[] = []
    for (let word = 0; word < words && found.length < limit; word += 1) {
      let value = result[word] as number
      while (value !== 0 && found.length < limit) {
        const lowest = value & -value
        found.push(this.records[(word << 5) | (31 - Math.clz32(lowest))] as Company)
        value ^= lowest
      }
    }
    return found
  }
}
