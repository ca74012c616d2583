import express from 'express'
import {
  createLogger,
  createMetricsRegistry,
  createOpsRouter,
  listen,
  onShutdownSignal,
  runMain,
} from '@pf/service-kit'
import { loadWorkerConfig } from './config'
import { checkEvictionPolicy } from './queue/check-eviction-policy'
import { createWorkerConnection } from './queue/create-redis-connection'
import { createWebhookWorker } from './worker/create-webhook-worker'
import { defaultHandlers } from './worker/default-handlers'
import { loadHandlers } from './worker/load-handlers'

runMain('webhook-worker', async () => {
  const config = loadWorkerConfig(process.env)
  const logger = createLogger({ name: 'webhook-worker', level: config.logLevel })
  const handlers = config.handlersPath ? await loadHandlers(config.handlersPath) : defaultHandlers
  const connection = createWorkerConnection(config.redisUrl)
  connection.on('ready', () => void checkEvictionPolicy(connection, logger))
  connection.on('error', () => {}) // reported by the worker's own 'error' event

  const registry = createMetricsRegistry('pf_worker')
  const worker = createWebhookWorker({
    connection,
    prefix: config.queuePrefix,
    handlers,
    logger,
    registry,
    ...config,
  })
  const ops = express()
  ops.use(createOpsRouter({ registry, ready: async () => void (await connection.ping()) }))
  const server = await listen(ops, { port: config.port })
  logger.info(
    {
      handlers: config.handlersPath ?? 'built-in (log each event)',
      concurrency: config.concurrency,
      ops: server.url,
    },
    'webhook worker running',
  )

  onShutdownSignal(logger, async () => {
    await worker.close() // waits for the jobs in progress
    await server.close()
    connection.disconnect()
  })
})
