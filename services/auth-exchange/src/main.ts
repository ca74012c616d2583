import { createLogger, createMetricsRegistry, listen, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadExchangeConfig } from './config'
import { createExchangeService } from './create-exchange-service'

runMain('auth-exchange', async () => {
  const config = loadExchangeConfig(process.env)
  const logger = createLogger({ name: 'auth-exchange', level: config.logLevel })
  const app = createExchangeService(config, { logger, registry: createMetricsRegistry('pf_exchange') })
  const server = await listen(app, { port: config.port })
  logger.info(
    { url: server.url, idpStyle: config.idp.style, applicationId: config.applicationId },
    'auth exchange listening',
  )
  onShutdownSignal(logger, () => server.close())
})
