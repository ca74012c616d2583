import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import express, { type Express } from 'express'
import { Counter, Histogram, type Registry } from 'prom-client'
import { createErrorHandler, createOpsRouter, openApiRoute, type Logger } from '@pf/service-kit'
import type { ProviderConfig } from './config'
import { PROVIDER_HTTP_STATUS } from './http-status'
import { providerOpenApi } from './openapi-document'
import { createOutboundClient } from './outbound/create-outbound-client'
import { requireApiKey } from './routes/require-api-key'
import { createSearchRouter } from './routes/create-search-router'
import type { SearchEngine } from './search/search-engine'

export interface ProviderDeps {
  config: Pick<ProviderConfig, 'apiKeys' | 'outbound' | 'maxBodyBytes'> & {
    s3: Pick<ProviderConfig['s3'], 'defaultBucket'>
  }
  engine: SearchEngine
  s3: S3Client
  logger: Logger
  registry: Registry
}

/**
 * The provider's Express app: the two search endpoints behind `X-PF-Api-Key`, and `/health` (exempt, as the
 * spec says), `/ready` (the default bucket answers) and `/metrics`.
 */
export function createApp({ config, engine, s3, logger, registry }: ProviderDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  const metrics = {
    queries: new Counter({
      name: 'pf_provider_queries_total',
      help: 'Queries run, by endpoint, delivery mechanism and outcome (delivered, failed)',
      labelNames: ['endpoint', 'mechanism', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'pf_provider_query_duration_seconds',
      help: 'Search, delivery and callback of one query',
      labelNames: ['endpoint'] as const,
      registers: [registry],
    }),
    callbacks: new Counter({
      name: 'pf_provider_callbacks_total',
      help: 'Status callbacks, by outcome (sent, failed)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  }
  const ready = async () => {
    await s3.send(new HeadBucketCommand({ Bucket: config.s3.defaultBucket }))
  }
  app.use(createOpsRouter({ registry, ready }))
  app.get('/openapi.json', openApiRoute(providerOpenApi))
  app.use('/api', requireApiKey(config.apiKeys), express.json({ limit: config.maxBodyBytes }))
  app.use(
    createSearchRouter(engine, {
      http: createOutboundClient(config.outbound),
      s3,
      defaultBucket: config.s3.defaultBucket,
      outbound: config.outbound,
      logger,
      metrics,
    }),
  )
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' })
  })
  app.use(createErrorHandler({ logger, statusByCode: PROVIDER_HTTP_STATUS }))
  return app
}
