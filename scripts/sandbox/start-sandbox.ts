import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DEMO_API_KEY } from '@pf/schemas'
import { startOtlpCollector, startServiceProcess, type CollectedSpan, type ServiceProcess } from '@pf/testkit'
import { startAuth0Emulator, startKeycloakEmulator } from '@pf/testkit/emulators'
import { startMarketplaceIssuer } from '@pf/testkit/platform'
import { findPostgresBinaries, startPostgres } from '@pf/testkit/postgres'
import { redisPing, startRedis } from '@pf/testkit/redis'
import { startS3Server } from '@pf/testkit/s3'
import { findBusyPorts } from './find-busy-ports'
import { REFERENCE_LISTS, SANDBOX_JOB_SETTINGS } from './sandbox-defaults'
import { sandboxListeners } from './sandbox-listeners'
import { SANDBOX_QUEUE_PREFIX } from './sandbox-place'

const root = join(__dirname, '..', '..')
const dist = (service: string, entry = 'main.js') => join(root, 'services', service, 'dist', entry)

export type IdpStyle = 'realm' | 'tenant'

export interface SandboxOptions {
  /** Identity-provider styles to run an exchange for (one exchange per style). */
  idp?: IdpStyle[]
  /** `fixed`: the contract's ports (3001-3004, 3011) and fixed emulator ports; `ephemeral`: free ports (tests). */
  ports?: 'fixed' | 'ephemeral'
  /** Added to every fixed port (`--port-offset`): a second sandbox of fixed ports beside the first. */
  portOffset?: number
  redisUrl?: string
  /** Where s3rver keeps its objects. */
  dataDir?: string
  /**
   * Your handlers (`pnpm start --handlers FILE`, JavaScript or TypeScript): the worker runs them over the
   * built-in ones, kind by kind (sandbox-handlers.mts).
   */
  handlersModule?: string
  /** The address the services and the issuer bind to (HOST; default 127.0.0.1: the sandbox runs demo secrets). */
  host?: string

  /**
   * The caller's settings for every service (`passedSettings` of its environment; a test's
   * WEBHOOK_JOB_BACKOFF_MS): over the sandbox's own (LOG_LEVEL, SANDBOX_JOB_SETTINGS), under its wiring.
   */
  env?: Record<string, string>
  queuePrefix?: string
  /** `reference`: the provider screens against every list of `data/reference/` and the sample's. */
  lists?: 'sample' | 'reference'
  /** `--traces`: the services export their spans to a collector in this process, which hands them here. */
  onSpans?: (spans: CollectedSpan[]) => void
  /** `postgres`: a private PostgreSQL with the sample companies imported, the provider pointed at it. */
  companies?: 'memory' | 'postgres'
  /** Log lines of the services, tagged with the service's name. */
  onLog?: (service: string, line: Record<string, unknown>) => void
}

export class SandboxError extends Error {}

/**
 * The worker's handlers in the sandbox: sandbox-handlers.mts (the built-ins, yours over them, `fail-me`), loaded
 * through tsx, which also loads a handlers file written in TypeScript.
 */
function sandboxHandlersEnv(handlersModule: string | undefined) {
  return {
    WEBHOOK_HANDLERS: join(__dirname, 'sandbox-handlers.mts'),
    PF_SANDBOX_HANDLERS: handlersModule ? resolve(handlersModule) : undefined,
    NODE_OPTIONS: `--import=${pathToFileURL(require.resolve('tsx')).href}`,
  }
}

export const SANDBOX = {
  apiKey: DEMO_API_KEY,
  webhookSecret: 'whsec_sandbox_secret',
  applicationId: 'app_sandbox',
  clientId: 'pf-exchange',
  clientSecret: 'sandbox-exchange-secret',
  bucket: 'pf-deliveries',
  /** bull-board's password (any user name), read-only as everywhere. */
  dashboardToken: 'sandbox-dashboard-token',
}

/** Redis at `url`, or a private redis-server when nothing answers there and the binary exists. */
async function redisFor(url: string) {
  const { hostname, port } = new URL(url)
  if (await redisPing(hostname, Number(port || 6379), 1000))
    return { url, isPrivate: false, stop: async () => {} }
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new SandboxError(
      `Redis does not answer at ${url} and redis-server is not installed: start Redis, set REDIS_URL, or install it (apt-get install redis-server / brew install redis)`,
    )
  }
  return startRedis()
}

/**
 * A private PostgreSQL (gone when the sandbox stops) with the provider's sample companies imported by the
 * built `import-companies` command, as an operator would.
 */
async function companiesDatabase() {
  if (!findPostgresBinaries())
    throw new SandboxError(
      "--companies postgres needs PostgreSQL's server binaries under /usr/lib/postgresql (apt-get install postgresql)",
    )
  const postgres = await startPostgres()
  const sample = join(root, 'services', 'provider', 'data', 'sample', 'companies.jsonl')
  const imported = spawnSync(
    process.execPath,
    [dist('provider', 'import-companies.js'), '--database-url', postgres.url, '--source', 'sample', sample],
    { encoding: 'utf8' },
  )
  if (imported.status !== 0) {
    await postgres.destroy()
    throw new SandboxError(`the sample companies could not be imported: ${imported.stderr.trim()}`)
  }
  return postgres
}

/**
 * Everything on one machine, wired together: an S3-compatible store, the identity-provider emulator(s), the
 * marketplace issuer, and the provider, receiver, worker and exchange(s) as processes from their dist/.
 */
export async function startSandbox({
  idp = ['realm'],
  ports = 'fixed',
  portOffset = 0,
  redisUrl = 'redis://127.0.0.1:6379',
  dataDir = join(root, '.sandbox'),
  handlersModule,
  host = '127.0.0.1',
  env: extraEnv = {},
  queuePrefix = SANDBOX_QUEUE_PREFIX,
  companies = 'memory',
  lists = 'sample',
  onLog,
  onSpans,
}: SandboxOptions = {}) {
  for (const service of ['provider', 'webhook-receiver', 'auth-exchange']) {
    if (
      spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(dist(service))})`])
        .status !== 0
    ) {
      throw new SandboxError(`services/${service}/dist is missing: run pnpm build first (pnpm start does)`)
    }
  }
  const port = (fixed: number) => (ports === 'fixed' ? fixed + portOffset : 0)
  if (ports === 'fixed') {
    const busy = await findBusyPorts(sandboxListeners({ idp, host, port }))
    if (busy) throw new SandboxError(busy)
  }
  const stops: (() => Promise<unknown>)[] = []
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {})
  }
  try {
    const redis = await redisFor(redisUrl)
    stops.push(() => redis.stop())
    mkdirSync(join(dataDir, 's3'), { recursive: true })
    const s3 = await startS3Server({
      buckets: [SANDBOX.bucket],
      directory: join(dataDir, 's3'),
      port: port(4569),
    })
    stops.push(() => s3.stop())
    const issuer = await startMarketplaceIssuer({ port: port(4200), host })
    stops.push(() => issuer.stop())
    const keycloak = idp.includes('realm')
      ? await startKeycloakEmulator({
          port: port(4100),
          clients: [{ clientId: SANDBOX.clientId, secret: SANDBOX.clientSecret }],
          unmanagedAttributes: true,
        })
      : undefined
    if (keycloak) stops.push(() => keycloak.stop())
    const auth0 = idp.includes('tenant')
      ? await startAuth0Emulator({
          port: port(4110),
          clients: [{ clientId: SANDBOX.clientId, clientSecret: SANDBOX.clientSecret }],
        })
      : undefined
    if (auth0) stops.push(() => auth0.stop())

    const postgres = companies === 'postgres' ? await companiesDatabase() : undefined
    if (postgres) stops.push(() => postgres.destroy())
    const collector = onSpans ? await startOtlpCollector({ keep: false, onSpans }) : undefined
    if (collector) stops.push(() => collector.close())

    const base = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'info',
      HOST: host,
      ...SANDBOX_JOB_SETTINGS,
      // A span shown a fifth of a second after it ends, not five (the SDK's default batch delay).
      ...(collector ? { OTEL_BSP_SCHEDULE_DELAY: '200' } : {}),
      ...extraEnv,
      ...(collector
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }
        : {}),
    }
    const launch = (
      entry: string,
      readyMessage: string,
      env: Record<string, string | undefined>,
      name = readyMessage.split(' ').slice(0, -1).join(' '),
    ) =>
      startServiceProcess({
        entry,
        env: { ...base, ...env },
        readyMessage,
        // A hang guard: the reference lists take seconds to load on a busy machine.
        timeoutMs: 60_000,
        onLog: (line) => onLog?.(name, line),
      })
    const start = async (...args: Parameters<typeof launch>) => {
      const service = await launch(...args)
      stops.push(() => service.stop('SIGTERM'))
      return service
    }
    const url = (service: ServiceProcess) => service.readyLine.url as string
    const provider = await start(dist('provider'), 'provider listening', {
      PORT: String(port(3002)),
      PF_API_KEY: SANDBOX.apiKey,
      S3_ENDPOINT: s3.endpoint,
      S3_DEFAULT_BUCKET: SANDBOX.bucket,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      COMPANIES_DATABASE_URL: postgres?.url,
      ...(lists === 'reference' ? { SANCTIONS_SOURCES: REFERENCE_LISTS.join(',') } : {}),
      // The SDK's notice that its 2027 releases need Node 22 (README: "Set up and run"); noise in a sandbox.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    })
    const queue = { REDIS_URL: redis.url, WEBHOOK_QUEUE_PREFIX: queuePrefix }
    const receiver = await start(dist('webhook-receiver'), 'webhook receiver listening', {
      ...queue,
      PORT: String(port(3001)),
      PF_WEBHOOK_SECRET: SANDBOX.webhookSecret,
      QUEUE_DASHBOARD_TOKEN: SANDBOX.dashboardToken,
    })
    const workerEnv = (workerPort: number) => ({
      ...queue,
      PORT: String(workerPort),
      ...sandboxHandlersEnv(handlersModule),
    })
    let worker = await launch(
      dist('webhook-receiver', 'worker.js'),
      'webhook worker running',
      workerEnv(port(3011)),
    )
    stops.push(() => worker.stop('SIGTERM'))
    /** Drains the worker (SIGTERM: its jobs finish) and starts it again on its port, with the handlers reloaded. */
    const restartWorker = async () => {
      const { port: workerPort } = new URL(url(worker))
      await worker.stop('SIGTERM')
      worker = await launch(
        dist('webhook-receiver', 'worker.js'),
        'webhook worker running',
        workerEnv(Number(workerPort)),
      )
    }
    const marketplace = {
      PF_APPLICATION_ID: SANDBOX.applicationId,
      MARKETPLACE_JWKS_URL: issuer.jwksUrl,
      MARKETPLACE_ISSUER: issuer.issuer,
    }
    const exchanges: Partial<Record<IdpStyle, string>> = {}
    if (keycloak) {
      exchanges.realm = url(
        await start(
          dist('auth-exchange'),
          'auth exchange listening',
          {
            ...marketplace,
            PORT: String(port(3003)),
            IDP_STYLE: 'realm',
            REALM_SERVER_URL: keycloak.url,
            REALM_NAME: keycloak.realm,
            REALM_CLIENT_ID: SANDBOX.clientId,
            REALM_CLIENT_SECRET: SANDBOX.clientSecret,
            REALM_ADMIN_USER: 'admin',
            REALM_ADMIN_PASSWORD: 'admin',
          },
          'auth exchange (realm)',
        ),
      )
    }
    if (auth0) {
      exchanges.tenant = url(
        await start(
          dist('auth-exchange'),
          'auth exchange listening',
          {
            ...marketplace,
            PORT: String(port(3004)),
            IDP_STYLE: 'tenant',
            TENANT_DOMAIN: auth0.domain,
            TENANT_BASE_URL: auth0.url,
            TENANT_CLIENT_ID: SANDBOX.clientId,
            TENANT_CLIENT_SECRET: SANDBOX.clientSecret,
            TENANT_AUDIENCE: 'https://api.pf.example.com',
            TENANT_CLAIM_NAMESPACE: auth0.namespace,
          },
          'auth exchange (tenant)',
        ),
      )
    }
    return {
      urls: {
        provider: url(provider),
        webhook: `${url(receiver)}/webhooks/pf`,
        receiver: url(receiver),
        dashboard: `${url(receiver)}/admin/queues`,
        worker: url(worker),
        exchanges,
        s3: s3.endpoint,
        issuer: issuer.url,
        keycloak: keycloak?.url,
        auth0: auth0?.url,
        companiesDatabase: postgres?.url,
        traces: collector?.url,
      },
      /** The provider's lists as it loaded them (its ready line): name and records. */
      lists: (provider.readyLine.lists ?? []) as { name: string; records: number }[],
      /** What the receiver's jobs get, and whether the caller's settings chose it. */
      jobs: {
        attempts: Number(base.WEBHOOK_JOB_ATTEMPTS),
        backoffMs: Number(base.WEBHOOK_JOB_BACKOFF_MS),
        yours: Object.keys(SANDBOX_JOB_SETTINGS).filter((name) => name in extraEnv),
      },
      /** The caller's settings every service got. */
      passed: extraEnv,
      redis: { url: redis.url, isPrivate: redis.isPrivate, queuePrefix },
      s3,
      issuer,
      restartWorker,
      stop: stopAll,
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>
