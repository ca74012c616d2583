import type { Company } from '../datasets/records'

/** A companies search: each filter given must hold; at most `limit` records. */
export interface CompaniesQuery {
  name?: string | null
  country?: string | null
  industry?: string | null
  limit: number
}

/**
 * Where the companies search runs, whatever holds the records: every word of `name` (and of `industry`) starts
 * a word of the company's name (or industry), case- and accent-insensitively (`tokenize`); `country` is
 * compared as an ISO code, whatever its spelling (`normalizeCountry`); results come in dataset order.
 * `CompaniesIndex` holds them in memory.
 */
export interface CompanyStore {
  /** The first `limit` companies, in dataset order, that pass every filter of `query`. */
  search(query: CompaniesQuery): Company[]
}
