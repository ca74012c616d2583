import type { Company } from '../datasets/records'
import { CompaniesIndex } from './companies-index'
import type { CompaniesQuery, CompaniesStreamQuery, CompanyStore } from './company-store'

/** The records handed to a stream's consumer between two yields to the event loop. */
const STREAM_BATCH = 1000

/** The embedded default `CompanyStore`: the records in this process, searched by a `CompaniesIndex`. */
export class MemoryCompanyStore implements CompanyStore {
  readonly kind = 'memory'

  constructor(readonly index: CompaniesIndex) {}

  static build(records: Company[]): MemoryCompanyStore {
    return new MemoryCompanyStore(CompaniesIndex.build(records))
  }

  get size(): number {
    return this.index.size
  }

  async search(query: CompaniesQuery): Promise<Company[]> {
    return this.index.search(query)
  }

  /**
   * The matches are references to records already in memory (8 bytes each), so they are found at once and
   * handed out in batches, yielding to the event loop between batches so a long delivery never starves others.
   */
  async *stream(query: CompaniesStreamQuery, { signal }: { signal?: AbortSignal } = {}) {
    const found = this.index.search({ ...query, limit: query.limit ?? Number.POSITIVE_INFINITY })
    for (let at = 0; at < found.length; at += STREAM_BATCH) {
      signal?.throwIfAborted()
      yield* found.slice(at, at + STREAM_BATCH)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}
}
