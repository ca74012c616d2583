import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import type { Express } from 'express'
import type { Registry } from 'prom-client'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import { createOutboundClient } from './adapters/create-outbound-client'
import { createQueryPorts } from './adapters/create-query-ports'
import { createS3Client } from './adapters/create-s3-client'
import type { CompanyStore } from './companies/company-store'
import type { ProviderConfig } from './config'
import { createApp } from './create-app'
import { loadDatasets } from './datasets/load-datasets'
import { createProviderMetrics } from './metrics'
import type { ListInfo, RefreshOutcome, SanctionsLists } from './lists/sanctions-lists'
import { SearchEngine } from './search-engine'

/**
 * The provider as `serve` runs it: `ready()` resolves when the default bucket and the company store answer;
 * `start()` keeps the lists fresh, every `SANCTIONS_REFRESH_INTERVAL` and on SIGHUP (a failed refresh keeps the
 * lists in use, and is logged); `close()` stops that and releases the S3 client's sockets and the database pools.
 */
export interface Provider extends RunnableService {
  app: Express
  /** Reloads the sanctions lists and swaps the index (see `SanctionsLists.refresh`). */
  refreshLists(): Promise<RefreshOutcome>
  /** The lists in use. */
  lists(): ListInfo[]
}

export interface ProviderAdapters {
  logger: Logger
  registry?: Registry
  /** The search indexes; default: built from `config.dataDir`. */
  engine?: SearchEngine
  /** Default: from `config.s3`, with credentials from the SDK's own chain. */
  s3?: S3Client
  /** The sanctions lists (`SANCTIONS_SOURCES`, loaded by the caller); default: the datasets' sanctions entries. */
  lists?: SanctionsLists
  /** Where companies are searched (`openCompanyStore`); default: the datasets' companies, in memory. */
  companies?: CompanyStore
}

/** The whole provider from its configuration: datasets and indexes, S3 and HTTP adapters, metrics, app. */
export function createProvider(
  config: ProviderConfig,
  { logger, registry, engine, s3, lists, companies }: ProviderAdapters,
): Provider {
  const search = engine ?? buildEngine(config.dataDir, logger, lists, companies)
  // Credentials come from the SDK's own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles).
  const store = s3 ?? createS3Client({ ...config.s3, timeoutMs: config.outbound.timeoutMs })
  const metricsRegistry = registry ?? createMetricsRegistry('pf_provider')
  const metrics = createProviderMetrics(metricsRegistry, () => search.lists.current().lists)
  const ready = async () => {
    await Promise.all([
      store.send(new HeadBucketCommand({ Bucket: config.s3.defaultBucket })),
      search.companies.ready(),
    ])
  }
  const ports = createQueryPorts({
    s3: store,
    http: createOutboundClient(config.outbound),
    defaultBucket: config.s3.defaultBucket,
    outbound: config.outbound,
    logger,
  })
  const app = createApp({
    config,
    deps: {
      engine: search,
      ports,
      ready,
      logger,
      registry: metricsRegistry,
      metrics,
    },
  })
  const refreshLists = async () => {
    const outcome = await search.lists.refresh()
    metrics.listRefreshes.inc({ outcome: outcome.ok ? 'ok' : 'failed' })
    return outcome
  }
  const schedule = refreshSchedule(refreshLists, config.sanctions.refreshIntervalMs)
  return {
    app,
    registry: metricsRegistry,
    ready,
    start: async () => schedule.start(),
    refreshLists,
    lists: () => search.lists.current().lists,
    close: async () => {
      schedule.stop()
      if (!s3) store.destroy()
      await search.companies.close()
    },
  }
}

function buildEngine(
  dataDir: string,
  logger: Logger,
  lists?: SanctionsLists,
  companies?: CompanyStore,
): SearchEngine {
  const started = performance.now()
  const datasets = loadDatasets(dataDir)
  const engine = SearchEngine.build(datasets, lists, companies)
  logger.info(
    { dataDir, sources: datasets.sources, ms: Math.round(performance.now() - started) },
    'datasets loaded and indexed',
  )
  return engine
}

/** A refresh every `intervalMs` (none when undefined) and on SIGHUP, from `start()` until `stop()`. */
function refreshSchedule(refresh: () => Promise<unknown>, intervalMs: number | undefined) {
  const onSignal = () => void refresh()
  let timer: NodeJS.Timeout | undefined
  return {
    start() {
      timer = intervalMs ? setInterval(onSignal, intervalMs) : undefined
      timer?.unref()
      process.on('SIGHUP', onSignal)
    },
    stop() {
      if (timer) clearInterval(timer)
      process.off('SIGHUP', onSignal)
    },
  }
}
