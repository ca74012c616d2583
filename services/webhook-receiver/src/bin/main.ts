import { createLogger, listen, listenMetrics, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadReceiverConfig } from '../config'
import { createReceiver } from '../receiver/create-receiver'

runMain('webhook-receiver', async () => {
  const config = loadReceiverConfig(process.env)
  const logger = createLogger({ name: 'webhook-receiver', level: config.logLevel })
  for (const warning of config.warnings) logger.warn(warning)
  const receiver = createReceiver(config, { logger })
  const server = await listen(receiver.app, { port: config.port, tls: config.tls, limits: config.server })
  const metrics = await listenMetrics(receiver.registry, {
    port: config.ops.metricsPort,
    limits: config.server,
  })
  onShutdownSignal(
    logger,
    async () => {
      await Promise.all([server.close(), metrics?.close()])
      await receiver.close()
    },
    { drainTimeoutMs: config.server.drainTimeoutMs },
  )
  // Ready is said only once SIGTERM is handled: a signal right after it must drain, not kill.
  logger.info(
    { url: server.url, metricsUrl: metrics?.url, path: config.path, tls: Boolean(config.tls) },
    'webhook receiver listening',
  )
})
