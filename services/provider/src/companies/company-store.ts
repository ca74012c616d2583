import type { Company } from '../datasets/records'

/** The filters of a companies search: each one given must hold. */
export interface CompaniesFilter {
  name?: string | null
  country?: string | null
  industry?: string | null
}

/** A companies search: its filters, at most `limit` records. */
export interface CompaniesQuery extends CompaniesFilter {
  limit: number
}

/** A streamed companies search: every match unless `limit` is given. */
export interface CompaniesStreamQuery extends CompaniesFilter {
  limit?: number
}

/**
 * Where the companies search runs, whatever holds the records: every word of `name` (and of `industry`) starts
 * a word of the company's name (or industry), case- and accent-insensitively (`tokenize`); `country` is
 * compared as an ISO code, whatever its spelling (`normalizeCountry`); results come in dataset order.
 * `MemoryCompanyStore` holds them in memory (`CompaniesIndex`), `PostgresCompanyStore` in PostgreSQL.
 */
export interface CompanyStore {
  /** What holds the records, for logs and the start banner: `memory` or `postgres`. */
  readonly kind: 'memory' | 'postgres'
  /** The first `limit` companies, in dataset order, that pass every filter of `query`. */
  search(query: CompaniesQuery): Promise<Company[]>
  /**
   * Every company that passes the filters (the first `limit` when given), in dataset order, read from the
   * store as the consumer pulls them: memory stays flat whatever the count. `signal` ends the read early.
   */
  stream(query: CompaniesStreamQuery, options?: { signal?: AbortSignal }): AsyncIterable<Company>
  /** Resolves when the store answers (`/ready`). */
  ready(): Promise<void>
  /** Releases its connections. */
  close(): Promise<void>
}
