import { buildProviderOpenApi } from '@pf/provider-kit'
import { COMPANIES } from './endpoints/companies-endpoint'
import { LISTS_ROUTE } from './endpoints/lists-route'
import { SANCTIONS } from './endpoints/sanctions-endpoint'
import { WATCH_OPENAPI_PATHS } from './watches/watch-openapi'

/** The provider's OpenAPI 3.1 document, served at /openapi.json: the kit's, from the two endpoints, GET /api/lists and the watches. */
export const providerOpenApi = buildProviderOpenApi({
  endpoints: [COMPANIES, SANCTIONS],
  routes: [LISTS_ROUTE],
  paths: WATCH_OPENAPI_PATHS,
})
