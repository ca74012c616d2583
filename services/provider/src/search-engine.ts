import { createHash } from 'node:crypto'
import type { CompaniesParameters, SanctionsParameters } from '@pf/schemas'
import type { Logger } from '@pf/service-kit'
import type { Company, Datasets } from './datasets/records'
import { sanctionsList } from './lists/sanctions-list'
import { SanctionsLists, type ListVersion } from './lists/sanctions-lists'
import type { CompanyStore } from './companies/company-store'
import { MemoryCompanyStore } from './companies/memory-company-store'
import type { SanctionMatch } from './screening/sanctions-index'

/** Defaults for the parameters this kit adds to the spec's. */
export const SEARCH_DEFAULTS = { companiesLimit: 100, sanctionsThreshold: 85, sanctionsLimit: 20 }

const silent = { info() {}, error() {} } as unknown as Logger

/**
 * Both searches, as the routes see them: companies in a `CompanyStore` (`companies/`: the datasets loaded at
 * start, indexed in memory, or PostgreSQL), screening over the sanctions lists in use (`lists/`, indexed by `screening/`).
 */
export class SearchEngine {
  private constructor(
    readonly companies: CompanyStore,
    readonly lists: SanctionsLists,
  ) {}

  /**
   * The engine of loaded datasets. Without `lists`, the datasets' sanctions entries are one list named
   * `datasets`, its version a hash of its entries. With `companies`, the datasets' companies are not indexed.
   */
  static build(
    datasets: Pick<Datasets, 'companies' | 'sanctions'>,
    lists?: SanctionsLists,
    companies?: CompanyStore,
  ): SearchEngine {
    return new SearchEngine(
      companies ?? MemoryCompanyStore.build(datasets.companies),
      lists ??
        SanctionsLists.of(
          [
            sanctionsList(
              {
                name: 'datasets',
                format: 'datasets',
                source: 'datasets',
                sha256: createHash('sha256').update(JSON.stringify(datasets.sanctions)).digest('hex'),
              },
              datasets.sanctions,
            ),
          ],
          silent,
        ),
    )
  }

  /** Companies matching every filter, the first `limit`; `truncated` when more match (one more is looked for). */
  async searchCompanies(
    parameters: CompaniesParameters,
  ): Promise<{ results: Company[]; truncated: boolean }> {
    const limit = parameters.limit ?? SEARCH_DEFAULTS.companiesLimit
    const found = await this.companies.search({ ...parameters, limit: limit + 1 })
    return { results: found.slice(0, limit), truncated: found.length > limit }
  }

  /**
   * Companies for a delivery, streamed: every match, or the first `limit` when the query gives one, or `cap`
   * (`PROVIDER_MAX_DELIVERY_RECORDS`) when set. `truncated()`, once the records are read, says whether the
   * limit or cap left matches out (one more is read to know).
   */
  streamCompanies(
    parameters: CompaniesParameters,
    { cap, signal }: { cap?: number; signal?: AbortSignal } = {},
  ): { records: AsyncIterable<Company>; truncated: () => boolean } {
    const limit = parameters.limit ?? cap
    const source = this.companies.stream(
      { ...parameters, limit: limit === undefined ? undefined : limit + 1 },
      { signal },
    )
    let truncated = false
    async function* records() {
      let count = 0
      for await (const company of source) {
        if (limit !== undefined && count === limit) {
          truncated = true
          return
        }
        count += 1
        yield company
      }
    }
    return { records: records(), truncated: () => truncated }
  }

  /**
   * Screening on one snapshot of the lists (a refresh swapping them meanwhile does not mix versions); the
   * answer names the versions it was computed on, and how many entries reached the threshold before `limit`. `deadline`: epoch ms after which it stops (`SearchBudgetError`).
   */
  searchSanctions(
    parameters: SanctionsParameters,
    { deadline }: { deadline?: number } = {},
  ): { results: SanctionMatch[]; truncated: boolean; totalMatches: number; lists: ListVersion[] } {
    const { index, versions, selectable, versionOf } = this.lists.current()
    const { matches, total } = index.screen({
      deadline,
      name: parameters.name,
      country: parameters.country,
      threshold: parameters.threshold ?? SEARCH_DEFAULTS.sanctionsThreshold,
      limit: parameters.limit ?? SEARCH_DEFAULTS.sanctionsLimit,
      lists: parameters.lists ? screenedLists(parameters.lists, selectable) : undefined,
      entityType: parameters.entityType,
      birthYear: parameters.birthYear,
    })
    // Every hit names the version of each list it is on, as /api/lists shows it.
    for (const match of matches)
      for (const list of match.lists) list.version = versionOf.get(list.name) ?? list.version
    return { results: matches, truncated: total > matches.length, totalMatches: total, lists: versions }
  }
}

/**
 * The list and sub-list names entries carry for the names a query's `lists` gives (a list stands for its
 * sub-lists). A name no longer in use (a refresh dropped it after the query was checked) is refused, never
 * screened as fewer lists than asked.
 */
function screenedLists(
  names: readonly string[],
  selectable: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  return new Set(
    names.flatMap((name) => {
      const screened = selectable.get(name)
      if (!screened) throw new Error(`list ${name} is no longer in use`)
      return screened
    }),
  )
}
