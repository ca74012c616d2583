import { DEMO_API_KEY } from '@pf/schemas'
import { serve } from '@pf/service-kit'
import { openCompanyStore } from '../companies/open-company-store'
import { loadProviderConfig } from '../config'
import { createProvider } from '../create-provider'
import { loadConfiguredLists } from '../lists/load-configured-lists'
import { openWatchesDatabase } from '../watches/open-watches-database'

serve({
  name: 'provider',
  env: process.env,
  loadConfig: () => loadProviderConfig(process.env),
  create: async (config, logger) =>
    createProvider(config, {
      logger,
      lists: await loadConfiguredLists(config, logger),
      companies: await openCompanyStore(config.companiesDatabase, logger),
      watches: await openWatchesDatabase(config.watches, logger),
    }),
  readyMessage: 'provider listening',
  readyFields: (config, provider) => ({
    s3Endpoint: config.s3.endpoint ?? 'AWS',
    demoKey: config.apiKeys.includes(DEMO_API_KEY),
    companies: config.companiesDatabase ? 'postgres' : 'memory',
    watches: Boolean(config.watches),
    lists: provider.lists().map(({ name, records, sha256 }) => ({ name, records, sha256 })),
  }),
})
