import { ProviderError } from '@pf/provider-kit'

/** A search ran past its time budget (`SEARCH_TIME_BUDGET_MS`): a failed query, said as such. */
export class SearchBudgetError extends ProviderError<'ERR_SEARCH_BUDGET'> {
  readonly code = 'ERR_SEARCH_BUDGET'
}
