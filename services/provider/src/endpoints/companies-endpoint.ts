import { defineEndpoint, type EndpointDefinition } from '@pf/provider-kit'
import { CompaniesParametersSchema, type CompaniesParameters } from '@pf/schemas'
import type { Company } from '../datasets/records'
import type { SearchEngine } from '../search-engine'
import { nameWordsProblem } from './name-words-problem'

/** What the OpenAPI document and the checks read of the companies endpoint. */
export const COMPANIES = {
  name: 'companies',
  parameters: CompaniesParametersSchema,
  check: (parameters: CompaniesParameters) => nameWordsProblem(parameters),
  answerFields: {
    truncated: {
      const: true,
      description:
        'present when `limit` (or, for a delivery without one, PROVIDER_MAX_DELIVERY_RECORDS) left matching records out',
    },
  },
}

/**
 * `POST /api/search/companies`. Inline answers keep the search's limit (default 100) and say `truncated`;
 * object and webhook deliveries stream every match unless the query sets `limit` (or the operator
 * `PROVIDER_MAX_DELIVERY_RECORDS`).
 */
export function companiesEndpoint(
  engine: Pick<SearchEngine, 'searchCompanies' | 'streamCompanies'>,
  { maxDeliveryRecords }: { maxDeliveryRecords?: number } = {},
): EndpointDefinition<CompaniesParameters, Company> {
  return defineEndpoint({
    ...COMPANIES,
    search: (parameters, { mechanism, signal }) => {
      if (mechanism === 'inline') return engine.searchCompanies(parameters)
      const { records, truncated } = engine.streamCompanies(parameters, { cap: maxDeliveryRecords, signal })
      return { results: records, truncated }
    },
  })
}
