import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { Pool } from 'pg'
import type { AddressInfo } from 'node:net'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import {
  createLogger,
  createMetricsRegistry,
  DEFAULT_OPS_SETTINGS,
  DEFAULT_SERVER_LIMITS,
  listen,
  type OpsSettings,
  type RunningServer,
} from '@pf/service-kit'
import { startS3Server, type S3ServerHandle } from '@pf/testkit/s3'
import type { ProviderConfig, WatchesConfig } from '../src/config'
import { createProvider } from '../src/create-provider'
import { loadDatasets } from '../src/datasets/load-datasets'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { createS3Client } from '@pf/provider-kit'
import type { SanctionsLists } from '../src/lists/sanctions-lists'
import { SearchEngine } from '../src/search-engine'
import { referenceData } from './support-data'

export const API_KEY = 'test-api-key'

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

/** A local HTTP server that records what it receives (callbacks, webhook deliveries). */
export async function startRecorder() {
  const requests: RecordedRequest[] = []
  // `statusOf`, when set, answers each request by its index (0 first), a number or 'hang'.
  const behaviour: { status: number; hang: boolean; statusOf?: (index: number) => number | 'hang' } = {
    status: 200,
    hang: false,
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      })
      const answer = behaviour.statusOf?.(requests.length - 1) ?? (behaviour.hang ? 'hang' : behaviour.status)
      if (answer === 'hang') return
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

let engine: SearchEngine | undefined
/** One search engine over the real data for all tests: CC0 companies and the 2021 SDN list. */
export function realDataEngine(): SearchEngine {
  engine ??= SearchEngine.build({
    companies: loadDatasets(referenceData('companies-cc0')).companies,
    sanctions: loadOfacCsv(referenceData('ofac-sdn-2021')),
  })
  return engine
}

export interface StartedProvider extends RunningServer {
  s3: ReturnType<typeof createS3Client>
  /** Closes the server and its S3 client. */
  stop(): Promise<void>
}

/** The provider app on an ephemeral port, talking to a real S3-compatible server. */
export async function startProvider(
  s3Server: S3ServerHandle,
  {
    allowPrivate = true,
    timeoutMs = 30_000,
    maxBodyBytes = 64 * 1024,
    allowedBuckets,
    allowedPorts,
    s3Endpoint = s3Server.endpoint,
    lists,
    engine,
    delivery,
    ops = DEFAULT_OPS_SETTINGS,
    watches,
    watchAlerts,
  }: {
    allowPrivate?: boolean
    timeoutMs?: number
    maxBodyBytes?: number
    allowedBuckets?: string[]
    allowedPorts?: number[]
    /** Another S3 endpoint (a store that hangs, say). */
    s3Endpoint?: string
    /** Sanctions lists to screen against instead of the 2021 SDN engine. */
    lists?: SanctionsLists
    /** `READY_CACHE_MS`, `METRICS_PORT`. */
    ops?: OpsSettings
    /** The search engine (companies in PostgreSQL, say) instead of the real-data one. */
    engine?: SearchEngine
    /** `DELIVERY_TIMEOUT_MS`, `PROVIDER_MAX_DELIVERY_RECORDS`. */
    delivery?: { timeoutMs: number; maxRecords?: number }
    /** The watches database and its settings: the screener runs, and the pool is closed with the provider. */
    watches?: { pool: Pool; config: WatchesConfig }
    /** `WATCH_ALERT_*`. */
    watchAlerts?: ProviderConfig['watchAlerts']
  } = {},
): Promise<StartedProvider> {
  const s3 = createS3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    credentials: s3Server.credentials,
    timeoutMs,
  })
  const provider = createProvider(
    {
      port: 0,
      logLevel: 'silent',
      apiKeys: [API_KEY, 'previous-api-key'],
      s3: { endpoint: s3Server.endpoint, region: 'us-east-1', defaultBucket: 'pf-deliveries' },
      dataDir: '(unused: the engine is given)',
      allowedBuckets,
      outbound: { allowPrivate, timeoutMs, allowedPorts },
      maxBodyBytes,
      searchBudgetMs: 2000,
      delivery,
      sanctions: { loadTimeoutMs: 120_000, maxBytes: 512 * 1024 * 1024, minShare: 0.5, maxNameLength: 1000 },
      server: DEFAULT_SERVER_LIMITS,
      ops,
      watches: watches?.config,
      watchAlerts,
    },
    {
      engine:
        engine ?? (lists ? SearchEngine.build({ companies: [], sanctions: [] }, lists) : realDataEngine()),
      s3,
      logger: createLogger({ name: 'test', level: 'silent' }),
      registry: createMetricsRegistry('test'),
      watches: watches?.pool,
    },
  )
  const running = await listen(provider.app, { port: 0, host: '127.0.0.1' })
  if (watches) await provider.start()
  return {
    ...running,
    s3,
    stop: async () => {
      await running.close()
      if (watches) await provider.close()
      s3.destroy()
    },
  }
}

export async function startStore(): Promise<S3ServerHandle> {
  const store = await startS3Server({ buckets: ['pf-deliveries'] })
  const s3 = createS3Client({ endpoint: store.endpoint, region: 'us-east-1', credentials: store.credentials })
  await s3.send(new CreateBucketCommand({ Bucket: 'their-bucket' }))
  s3.destroy()
  return store
}

/** POSTs a query envelope like the platform does. */
export async function query(
  baseUrl: string,
  endpoint: 'companies' | 'sanctions',
  envelope: unknown,
  apiKey = API_KEY,
) {
  const res = await fetch(`${baseUrl}/api/search/${endpoint}`, {
    method: 'POST',
    body: typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
    headers: { 'content-type': 'application/json', 'x-pf-api-key': apiKey },
    signal: AbortSignal.timeout(8000),
  })
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: (await res.json()) as Record<string, unknown>,
  }
}
