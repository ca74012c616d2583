import { serve } from '@pf/service-kit'
import { loadReceiverConfig } from '../config'
import { createReceiver } from '../receiver/create-receiver'

serve({
  name: 'webhook-receiver',
  env: process.env,
  loadConfig: () => loadReceiverConfig(process.env),
  create: (config, logger) => createReceiver(config, { logger }),
  readyMessage: 'webhook receiver listening',
  readyFields: (config) => ({ path: config.path, tls: Boolean(config.tls), shards: config.shards }),
})
