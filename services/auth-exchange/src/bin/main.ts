import { serve } from '@pf/service-kit'
import { loadExchangeConfig } from '../config'
import { createExchange } from '../create-exchange'

serve({
  name: 'auth-exchange',
  env: process.env,
  loadConfig: () => loadExchangeConfig(process.env),
  create: (config, logger) => createExchange(config, { logger }),
  readyMessage: 'auth exchange listening',
  readyFields: (config) => ({ idpStyle: config.idp.style, applicationId: config.applicationId }),
})
