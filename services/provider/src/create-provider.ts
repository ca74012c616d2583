import type { S3Client } from '@aws-sdk/client-s3'
import type { Express } from 'express'
import type { Pool } from 'pg'
import type { Registry } from 'prom-client'
import { createProvider as createKitProvider } from '@pf/provider-kit'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import type { CompanyStore } from './companies/company-store'
import { DEFAULT_WATCHES, type ProviderConfig } from './config'
import { loadDatasets } from './datasets/load-datasets'
import { companiesEndpoint } from './endpoints/companies-endpoint'
import { sanctionsEndpoint } from './endpoints/sanctions-endpoint'
import { createListMetrics } from './list-metrics'
import { PROVIDER_ROUTE_DOCS } from './provider-route-docs'
import type { ListInfo, ListsSnapshot, RefreshOutcome, SanctionsLists } from './lists/sanctions-lists'
import { SearchEngine } from './search-engine'
import { createAlertDeliverer } from './watches/alerts/create-alert-deliverer'
import { createListRescreener } from './watches/rescreen/create-list-rescreener'
import { recordListRefresh } from './watches/rescreen/record-list-refresh'
import { watchAlertRoutes } from './watches/alerts/watch-alert-routes'
import { watchRoutes } from './watches/watch-routes'
import { createWatchScreener } from './watches/watch-screener'

/**
 * The provider as `serve` runs it: `ready()` resolves when the default bucket and the company store answer;
 * `start()` keeps the lists fresh, every `SANCTIONS_REFRESH_INTERVAL` and on SIGHUP (a failed refresh keeps the
 * lists in use, and is logged; with watches, what a refresh changed is re-screened: `recordListRefresh`);
 * `close()` stops that and releases the S3 client's sockets and the database pools.
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
  /**
   * The watches database (`openWatchesDatabase`: migrated, sized by `WATCHES_DATABASE_POOL`), ended by `close()`
   * after the screener, the list re-screener and the alert deliverer stop; undefined: the watch endpoints answer
   * 501, nothing is screened or delivered.
   */
  watches?: Pool
}

/**
 * The whole provider from its configuration: datasets and indexes, the two endpoints and `GET /api/lists` on
 * the kit (which does the protocol: checks, deliveries, callbacks, outbound safety, ops routes), list metrics.
 */
export function createProvider(
  config: ProviderConfig,
  { logger, registry, engine, s3, lists, companies, watches }: ProviderAdapters,
): Provider {
  const search = engine ?? buildEngine(config.dataDir, logger, lists, companies)
  const metricsRegistry = registry ?? createMetricsRegistry('pf_provider')
  const metrics = createListMetrics(metricsRegistry, () => search.lists.current().lists)
  // Every replica delivers alerts: each batch is claimed with a row lock, so one sends it (README, Watches).
  const deliverer =
    watches &&
    createAlertDeliverer({
      pool: watches,
      logger,
      outbound: config.outbound,
      settings: config.watchAlerts,
      registry: metricsRegistry,
    })
  const screener =
    watches &&
    createWatchScreener({
      pool: watches,
      engine: search,
      logger,
      registry: metricsRegistry,
      intervalMs: config.watches?.screeningIntervalMs ?? 1000,
      // The screener's alerts are sent at once rather than at the deliverer's next poll.
      alertsWritten: () => deliverer?.wake(),
    })
  // A list change re-screens only the subjects it can concern; its alerts go out at once, like the screener's.
  const rescreener =
    watches &&
    createListRescreener({
      pool: watches,
      engine: search,
      logger,
      intervalMs: config.watches?.screeningIntervalMs ?? 1000,
      alertsWritten: () => deliverer?.wake(),
    })
  /** Records what changed between two versions of the lists (`before` undefined: at start) for the watches. */
  const recordChange = async (before: ListsSnapshot | undefined, after: ListsSnapshot) => {
    if (!watches) return
    try {
      const record = await recordListRefresh(watches, before, after, logger)
      if (record.recorded.length > 0) rescreener?.wake()
      if (record.rescreenedWhole.length > 0) screener?.wake()
    } catch (error) {
      // The next refresh or start finds the watches behind its lists and screens the list's subjects again.
      logger.error({ err: error }, 'list change not recorded for the watches')
    }
  }
  const watchApi = watchRoutes({
    pool: watches,
    engine: search,
    outbound: config.outbound,
    subjects: {
      maxBytes: config.watches?.subjectsMaxBytes ?? DEFAULT_WATCHES.subjectsMaxBytes,
      timeoutMs: config.watches?.subjectsTimeoutMs ?? DEFAULT_WATCHES.subjectsTimeoutMs,
    },
    written: () => screener?.wake(),
  })
  const kit = createKitProvider({
    endpoints: [
      companiesEndpoint(search, { maxDeliveryRecords: config.delivery?.maxRecords }),
      sanctionsEndpoint(search),
    ],
    apiKeys: config.apiKeys,
    logger,
    registry: metricsRegistry,
    // Without a client, the kit makes one; credentials from the SDK's own chain (AWS_ACCESS_KEY_ID /
    // AWS_SECRET_ACCESS_KEY, profiles, roles).
    s3: { ...config.s3, client: s3, allowedBuckets: config.allowedBuckets },
    outbound: { ...config.outbound, allowPrivateSetting: 'OUTBOUND_ALLOW_PRIVATE' },
    delivery: { timeoutMs: config.delivery?.timeoutMs },
    maxBodyBytes: config.maxBodyBytes,
    searchTimeoutMs: config.searchBudgetMs,
    ops: config.ops,
    ready: () => search.companies.ready(),
    routeDocs: PROVIDER_ROUTE_DOCS,
    routes: (router) => {
      // What the screening runs on: per list its name, source, records, content hash, load time and names cut;
      // the last refresh, with the lists it refused for their counts. Behind the API key: /ready and /health
      // say only their status.
      router.get('/lists', (_req, res) => {
        const { lastRefresh } = search.lists
        const refused = lastRefresh?.refused ? { refused: lastRefresh.refused } : {}
        res.json({
          lists: search.lists.current().lists,
          lastRefresh: lastRefresh ? { ok: lastRefresh.ok, at: lastRefresh.at, ...refused } : null,
        })
      })
      watchApi(router)
      if (watches) watchAlertRoutes({ pool: watches, onRequeued: () => deliverer?.wake() })(router)
    },
  })
  const refreshLists = async () => {
    const before = search.lists.current()
    const outcome = await search.lists.refresh()
    metrics.listRefreshes.inc({ outcome: outcome.ok ? 'ok' : 'failed' })
    const after = search.lists.current()
    if (outcome.ok && after !== before) await recordChange(before, after)
    return outcome
  }
  const schedule = refreshSchedule(refreshLists, config.sanctions.refreshIntervalMs)
  return {
    app: kit.app,
    registry: metricsRegistry,
    ready: kit.ready,
    start: async () => {
      schedule.start()
      // Lists that changed while no replica ran (or whose recording failed) are caught up first.
      await recordChange(undefined, search.lists.current())
      screener?.start()
      rescreener?.start()
      deliverer?.start()
    },
    refreshLists,
    lists: () => search.lists.current().lists,
    close: async () => {
      schedule.stop()
      await screener?.stop()
      await rescreener?.stop()
      // Attempts in flight end within OUTBOUND_TIMEOUT_MS, inside the drain time; the rest wait in the database.
      await deliverer?.stop()
      await kit.close()
      await search.companies.close()
      await watches?.end()
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
