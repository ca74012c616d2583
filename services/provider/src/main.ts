import { createLogger, createMetricsRegistry, listen, onShutdownSignal, runMain } from '@pf/service-kit'
import { DEMO_API_KEY, loadProviderConfig } from './config'
import { createApp } from './create-app'
import { loadDatasets } from './datasets/load-datasets'
import { createS3Client } from './delivery/create-s3-client'
import { SearchEngine } from './search/search-engine'

runMain('provider', async () => {
  const config = loadProviderConfig(process.env)
  const logger = createLogger({ name: 'provider', level: config.logLevel })
  const started = performance.now()
  const datasets = loadDatasets(config.dataDir)
  const engine = SearchEngine.build(datasets)
  logger.info(
    { dataDir: config.dataDir, sources: datasets.sources, ms: Math.round(performance.now() - started) },
    'datasets loaded and indexed',
  )
  // Credentials come from the SDK's own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles).
  const s3 = createS3Client(config.s3)
  const app = createApp({ config, engine, s3, logger, registry: createMetricsRegistry('pf_provider') })
  const server = await listen(app, { port: config.port })
  logger.info(
    {
      url: server.url,
      s3Endpoint: config.s3.endpoint ?? 'AWS',
      demoKey: config.apiKeys.includes(DEMO_API_KEY),
    },
    'provider listening',
  )

  onShutdownSignal(logger, async () => {
    await server.close()
    s3.destroy()
  })
})
