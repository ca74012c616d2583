import { buildProviderOpenApi } from '@pf/provider-kit'
import { COMPANIES } from './endpoints/companies-endpoint'
import { SANCTIONS } from './endpoints/sanctions-endpoint'
import { PROVIDER_ROUTE_DOCS } from './provider-route-docs'

/** The provider's OpenAPI 3.1 document, served at /openapi.json: the kit's, from the two endpoints, GET /api/lists and the watches. */
export const providerOpenApi = buildProviderOpenApi({
  endpoints: [COMPANIES, SANCTIONS],
  routes: PROVIDER_ROUTE_DOCS,
})
