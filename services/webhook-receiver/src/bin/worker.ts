import { createLogger, listen, listenMetrics, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadWorkerConfig } from '../config'
import { createWorker } from '../worker/create-worker'
import { defaultHandlers } from '../worker/default-handlers'
import { loadHandlers } from '../worker/load-handlers'
import { withSessionEnd } from '../worker/session-end-handler'

runMain('webhook-worker', async () => {
  const config = loadWorkerConfig(process.env)
  const logger = createLogger({ name: 'webhook-worker', level: config.logLevel })
  const handlers = withSessionEnd(
    config.handlersPath ? await loadHandlers(config.handlersPath) : defaultHandlers,
    config.sessionEnd,
  )
  const worker = createWorker(config, { logger, handlers })
  const server = await listen(worker.app, { port: config.port, limits: config.server })
  const metrics = await listenMetrics(worker.registry, {
    port: config.ops.metricsPort,
    limits: config.server,
  })
  onShutdownSignal(
    logger,
    async () => {
      await worker.close()
      await Promise.all([server.close(), metrics?.close()])
    },
    { drainTimeoutMs: config.server.drainTimeoutMs },
  )
  // Ready is said only once SIGTERM is handled: a signal right after it must drain, not kill.
  logger.info(
    {
      handlers: config.handlersPath ?? 'built-in (log each event)',
      idpSessionEnd: config.sessionEnd ? config.sessionEnd.idp.style : 'off',
      concurrency: config.concurrency,
      url: server.url,
      metricsUrl: metrics?.url,
    },
    'webhook worker running',
  )
})
