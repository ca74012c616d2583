import { createLogger, createMetricsRegistry, listen, onShutdownSignal, runMain } from '@pf/service-kit'
import { loadReceiverConfig } from './config'
import { createApp } from './create-app'
import { checkEvictionPolicy } from './queue/check-eviction-policy'
import { createBullmqEventStore } from './queue/create-bullmq-event-store'

runMain('webhook-receiver', async () => {
  const config = loadReceiverConfig(process.env)
  const logger = createLogger({ name: 'webhook-receiver', level: config.logLevel })
  const store = createBullmqEventStore({ prefix: config.queuePrefix, ...config })
  let connected = false
  store.queue.on('error', (error) => {
    if (connected) logger.warn({ err: error }, 'lost Redis: answering 503 until it is back')
    connected = false
  })
  void store.client().then(
    (redis) => {
      redis.on('ready', () => {
        if (!connected) logger.info('connected to Redis')
        connected = true
      })
      connected = redis.status === 'ready'
      if (connected) logger.info('connected to Redis')
      return checkEvictionPolicy(redis, logger)
    },
    () => {},
  ) // the queue closed before it ever connected: nothing to check
  const dashboard = config.dashboardToken ? { queue: store.queue, token: config.dashboardToken } : undefined
  const app = createApp({ config, store, logger, registry: createMetricsRegistry('pf_receiver'), dashboard })
  const server = await listen(app, { port: config.port, tls: config.tls })
  logger.info({ url: server.url, path: config.path, tls: Boolean(config.tls) }, 'webhook receiver listening')

  onShutdownSignal(logger, async () => {
    await server.close()
    await store.close()
  })
})
