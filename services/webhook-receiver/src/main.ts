import { createLogger, createMetricsRegistry, listen, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadReceiverConfig } from './config'
import { createApp } from './create-app'
import { checkEvictionPolicy } from './queue/check-eviction-policy'
import { createBullmqEventStore } from './queue/create-bullmq-event-store'
import { createProducerConnection } from './queue/create-redis-connection'

runMain('webhook-receiver', async () => {
  const config = loadReceiverConfig(process.env)
  const logger = createLogger({ name: 'webhook-receiver', level: config.logLevel })
  const connection = createProducerConnection(config.redisUrl)
  let connected = false
  connection.on('ready', () => {
    connected = true
    logger.info('connected to Redis')
    void checkEvictionPolicy(connection, logger)
  })
  connection.on('error', (error) => {
    if (connected) logger.warn({ err: error }, 'lost Redis: answering 503 until it is back')
    connected = false
  })
  const store = createBullmqEventStore({ connection, prefix: config.queuePrefix, ...config })
  const app = createApp({ config, store, logger, registry: createMetricsRegistry('pf_receiver') })
  const server = await listen(app, { port: config.port, tls: config.tls })
  logger.info({ url: server.url, path: config.path, tls: Boolean(config.tls) }, 'webhook receiver listening')

  onShutdownSignal(logger, async () => {
    await server.close()
    await store.close()
    connection.disconnect()
  })
})
