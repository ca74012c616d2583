import { existsSync } from 'node:fs'
import { createLogger, listen, listenMetrics, onShutdownSignal, runMain, type Logger } from '@pf/service-kit'
import { DEMO_API_KEY } from '@pf/schemas'
import { loadProviderConfig, type ProviderConfig } from '../config'
import { createProvider } from '../create-provider'
import { holdsSanctionsList } from '../lists/load-sanctions-source'
import { SanctionsLists } from '../lists/sanctions-lists'

/**
 * The sanctions lists to screen against: `SANCTIONS_SOURCES`, or the lists in `PROVIDER_DATA_DIR` (none there:
 * the engine keeps the datasets' own entries, and there is nothing to refresh). A list that cannot be read or
 * parsed stops the start: serving without it would screen against less than the operator configured.
 */
async function loadLists(config: ProviderConfig, logger: Logger): Promise<SanctionsLists | undefined> {
  const options = { timeoutMs: 120_000, maxBytes: 512 * 1024 * 1024, logger }
  if (config.sanctions.sources) return SanctionsLists.load(config.sanctions.sources, options)
  if (!existsSync(config.dataDir) || !holdsSanctionsList(config.dataDir)) return undefined
  return SanctionsLists.load([config.dataDir], options)
}

runMain('provider', async () => {
  const config = loadProviderConfig(process.env)
  const logger = createLogger({ name: 'provider', level: config.logLevel })
  const lists = await loadLists(config, logger)
  const provider = createProvider(config, { logger, lists })
  const server = await listen(provider.app, { port: config.port, limits: config.server })
  const metrics = await listenMetrics(provider.registry, {
    port: config.ops.metricsPort,
    limits: config.server,
  })
  // Fresh lists: on a schedule and on SIGHUP; a failed refresh keeps the lists in use (and is logged).
  const refresh = () => void provider.refreshLists()
  const timer = config.sanctions.refreshIntervalMs
    ? setInterval(refresh, config.sanctions.refreshIntervalMs)
    : undefined
  timer?.unref()
  process.on('SIGHUP', refresh)
  onShutdownSignal(
    logger,
    async () => {
      if (timer) clearInterval(timer)
      await Promise.all([server.close(), metrics?.close()])
      await provider.close()
    },
    { drainTimeoutMs: config.server.drainTimeoutMs },
  )
  // Ready is said only once SIGTERM is handled: a signal right after it must drain, not kill.
  logger.info(
    {
      url: server.url,
      metricsUrl: metrics?.url,
      s3Endpoint: config.s3.endpoint ?? 'AWS',
      demoKey: config.apiKeys.includes(DEMO_API_KEY),
      lists: provider.lists().map(({ name, records, sha256 }) => ({ name, records, sha256 })),
    },
    'provider listening',
  )
})
