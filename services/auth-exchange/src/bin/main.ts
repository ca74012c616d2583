import { createLogger, listen, listenMetrics, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadExchangeConfig } from '../config'
import { createExchange } from '../create-exchange'

runMain('auth-exchange', async () => {
  const config = loadExchangeConfig(process.env)
  const logger = createLogger({ name: 'auth-exchange', level: config.logLevel })
  const exchange = createExchange(config, { logger })
  await exchange.start()
  const server = await listen(exchange.app, { port: config.port, limits: config.server })
  const metrics = await listenMetrics(exchange.registry, {
    port: config.ops.metricsPort,
    limits: config.server,
  })
  onShutdownSignal(
    logger,
    async () => {
      await Promise.all([server.close(), metrics?.close()])
      await exchange.close()
    },
    { drainTimeoutMs: config.server.drainTimeoutMs },
  )
  // Ready is said only once SIGTERM is handled: a signal right after it must drain, not kill.
  logger.info(
    {
      url: server.url,
      metricsUrl: metrics?.url,
      idpStyle: config.idp.style,
      applicationId: config.applicationId,
    },
    'auth exchange listening',
  )
})
