import { serve } from '@pf/service-kit'
import { loadWorkerConfig } from '../config'
import { createWorker } from '../worker/create-worker'
import { defaultHandlers } from '../worker/default-handlers'
import { loadHandlers } from '../worker/load-handlers'
import { withSessionEnd } from '../worker/session-end-handler'

serve({
  name: 'webhook-worker',
  env: process.env,
  loadConfig: () => loadWorkerConfig(process.env),
  create: async (config, logger) =>
    createWorker(config, {
      logger,
      handlers: withSessionEnd(
        config.handlersPath ? await loadHandlers(config.handlersPath) : defaultHandlers,
        config.sessionEnd,
      ),
    }),
  // The jobs in progress finish first, while /health still answers.
  closeOrder: 'service-first',
  readyMessage: 'webhook worker running',
  readyFields: (config) => ({
    handlers: config.handlersPath ?? 'built-in (log each event)',
    idpSessionEnd: config.sessionEnd ? config.sessionEnd.idp.style : 'off',
    concurrency: config.concurrency,
    ordering: config.ordering,
    shards: config.shards,
  }),
})
