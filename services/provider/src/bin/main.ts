import { createLogger, listen, onShutdownSignal, runMain } from '@pf/service-kit'
import { DEMO_API_KEY } from '@pf/schemas'
import { loadProviderConfig } from '../config'
import { createProvider } from '../create-provider'

runMain('provider', async () => {
  const config = loadProviderConfig(process.env)
  const logger = createLogger({ name: 'provider', level: config.logLevel })
  const provider = createProvider(config, { logger })
  const server = await listen(provider.app, { port: config.port, limits: config.server })
  onShutdownSignal(
    logger,
    async () => {
      await server.close()
      await provider.close()
    },
    { drainTimeoutMs: config.server.drainTimeoutMs },
  )
  // Ready is said only once SIGTERM is handled: a signal right after it must drain, not kill.
  logger.info(
    {
      url: server.url,
      s3Endpoint: config.s3.endpoint ?? 'AWS',
      demoKey: config.apiKeys.includes(DEMO_API_KEY),
    },
    'provider listening',
  )
})
