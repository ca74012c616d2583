// The provider as a process: its settings from the environment, read once here (the kit reads none).
import { fileURLToPath } from 'node:url'
import { createLogger, createProvider, serveProvider } from '@pf/provider-kit'
import { loadVehicles, vehiclesEndpoint } from './vehicles-endpoint.mjs'

const env = process.env
const apiKey = env.PF_API_KEY
if (!apiKey) {
  console.error('serve-your-own-data: set PF_API_KEY (the key the platform sends in X-PF-Api-Key)')
  process.exit(1)
}
const logger = createLogger({ name: 'vehicles-provider', level: env.LOG_LEVEL ?? 'info' })
const dataFile = env.DATA_FILE ?? fileURLToPath(new URL('../data/vehicles.jsonl', import.meta.url))

const provider = createProvider({
  endpoints: [vehiclesEndpoint(loadVehicles(dataFile))],
  apiKeys: [apiKey],
  logger,
  // Credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, read by the AWS SDK itself.
  s3: { defaultBucket: env.S3_DEFAULT_BUCKET ?? 'pf-deliveries', endpoint: env.S3_ENDPOINT },
  outbound: {
    allowPrivate: env.OUTBOUND_ALLOW_PRIVATE === 'true',
    allowPrivateSetting: 'OUTBOUND_ALLOW_PRIVATE',
  },
})
const served = await serveProvider(provider, { port: Number(env.PORT ?? 3002), logger })
logger.info({ url: served.url }, 'vehicles provider listening')
