import type { CompaniesParameters, SanctionsParameters } from '@pf/schemas'
import type { Datasets } from '../datasets/records'
import { CompaniesIndex } from './companies-index'
import { SanctionsIndex } from './sanctions-index'

/** Defaults for the parameters this kit adds to the spec's. */
export const SEARCH_DEFAULTS = { companiesLimit: 100, sanctionsThreshold: 85, sanctionsLimit: 20 }

/** Both searches over the datasets loaded at start. */
export class SearchEngine {
  private constructor(
    readonly companies: CompaniesIndex,
    readonly sanctions: SanctionsIndex,
  ) {}

  static build(datasets: Pick<Datasets, 'companies' | 'sanctions'>): SearchEngine {
    return new SearchEngine(
      CompaniesIndex.build(datasets.companies),
      SanctionsIndex.build(datasets.sanctions),
    )
  }

  searchCompanies(parameters: CompaniesParameters) {
    return this.companies.search({ ...parameters, limit: parameters.limit ?? SEARCH_DEFAULTS.companiesLimit })
  }

  /** `deadline`: epoch ms after which the search stops with `SearchBudgetError`. */
  searchSanctions(parameters: SanctionsParameters, { deadline }: { deadline?: number } = {}) {
    return this.sanctions.search({
      deadline,
      name: parameters.name,
      country: parameters.country,
      threshold: parameters.threshold ?? SEARCH_DEFAULTS.sanctionsThreshold,
      limit: parameters.limit ?? SEARCH_DEFAULTS.sanctionsLimit,
    })
  }
}
