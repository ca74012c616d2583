import express, { type Express } from 'express'
import type { Registry } from 'prom-client'
import {
  createErrorHandler,
  createOpsRouter,
  openApiRoute,
  type Logger,
  type OpsSettings,
} from '@pf/service-kit'
import type { ProviderConfig } from './config'
import type { QueryPorts } from './core/query-ports'
import { PROVIDER_HTTP_STATUS } from './http-status'
import type { ProviderMetrics } from './metrics'
import { providerOpenApi } from './openapi-document'
import { createSearchRouter } from './routes/create-search-router'
import { requireApiKey } from './routes/require-api-key'
import type { SearchEngine } from './search-engine'

export interface ProviderAppInput {
  config: Pick<
    ProviderConfig,
    'apiKeys' | 'maxBodyBytes' | 'searchBudgetMs' | 'allowedBuckets' | 'delivery'
  > & {
    outbound: Pick<ProviderConfig['outbound'], 'allowPrivate' | 'allowedPorts'>
    s3: Pick<ProviderConfig['s3'], 'defaultBucket'>
    ops?: OpsSettings
  }
  deps: {
    engine: SearchEngine
    ports: QueryPorts
    /** Resolves when the provider's dependencies (the default bucket, the company store) answer. */
    ready: () => Promise<void>
    logger: Logger
    registry: Registry
    metrics: ProviderMetrics
  }
}

/**
 * The provider's Express app: the two search endpoints behind `X-PF-Api-Key`, and `/health` (exempt, as the
 * spec says), `/ready` and `/metrics`.
 */
export function createApp({ config, deps }: ProviderAppInput): Express {
  const { engine, ports, ready, logger, registry, metrics } = deps
  const app = express()
  app.disable('x-powered-by')
  app.use(createOpsRouter({ registry, ready, logger, ops: config.ops }))
  app.get('/openapi.json', openApiRoute(providerOpenApi))
  app.use('/api', requireApiKey(config.apiKeys), express.json({ limit: config.maxBodyBytes }))
  // What the screening runs on: per list its name, source, records, content hash, load time and names cut; the
  // last refresh, with the lists it refused for their counts. Behind the API key: /ready and /health say only
  // their status.
  app.get('/api/lists', (_req, res) => {
    const { lastRefresh } = engine.lists
    const refused = lastRefresh?.refused ? { refused: lastRefresh.refused } : {}
    res.json({
      lists: engine.lists.current().lists,
      lastRefresh: lastRefresh ? { ok: lastRefresh.ok, at: lastRefresh.at, ...refused } : null,
    })
  })
  app.use(
    createSearchRouter({
      engine,
      allowPrivate: config.outbound.allowPrivate,
      allowedPorts: config.outbound.allowedPorts,
      s3: { defaultBucket: config.s3.defaultBucket, allowedBuckets: config.allowedBuckets },
      searchBudgetMs: config.searchBudgetMs,
      deliveryTimeoutMs: config.delivery?.timeoutMs,
      maxDeliveryRecords: config.delivery?.maxRecords,
      ports,
      logger,
      metrics,
    }),
  )
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' })
  })
  app.use(createErrorHandler({ logger, table: PROVIDER_HTTP_STATUS }))
  return app
}
