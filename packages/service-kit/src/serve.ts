import type { RequestListener } from 'node:http'
import type { Registry } from 'prom-client'
import { createLogger, type Logger } from './create-logger'
import type { Env } from './env-reader'
import { listen } from './listen'
import { listenMetrics } from './listen-metrics'
import type { OpsSettings } from './ops-settings'
import { onShutdownSignal, runMain, SHUTDOWN_MARGIN_MS } from './run-main'
import type { ServerLimits } from './server-limits'
import { startTracing, TRACING_FLUSH_MS } from './start-tracing'

/** What every service's `create<Service>(config, adapters)` returns, and `serve` runs. */
export interface RunnableService {
  /** The request listener: an Express app, or the receiver's listener in front of one. */
  app: RequestListener
  /** What `/metrics` shows (on `METRICS_PORT` when set). */
  registry: Registry
  /** Resolves when the service's dependencies answer (`/ready`). */
  ready(): Promise<void>
  /** What must happen once before serving (checks, schedules); rejecting stops the start. */
  start(): Promise<void>
  /** Releases what the service holds; the HTTP servers are `serve`'s. */
  close(): Promise<void>
}

/** The settings `serve` reads from a service's config: every service has them. */
export interface ServedConfig {
  port: number
  logLevel: string
  /** PEM certificate and key: HTTPS only (the receiver's `TLS_CERT_FILE`, `TLS_KEY_FILE`). */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /** `HTTP_*`, `SHUTDOWN_DRAIN_MS`. */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
  /** What start-up says at warn level once the logger exists. */
  warnings?: readonly string[]
}

export interface ServeOptions<Config extends ServedConfig, Service extends RunnableService> {
  /** The process's name: its logger's, and the prefix of a failed start's line on stderr. */
  name: string
  /** The process's environment: its `OTEL_*` variables turn tracing on (`startTracing`); omitted, it stays off. */
  env?: Env
  /** Reads the environment (a `ConfigError` is the one line on stderr, exit 1). */
  loadConfig(): Config
  /** Builds the service (loading what it needs first). */
  create(config: Config, logger: Logger): Service | Promise<Service>
  /**
   * On SIGTERM, `'servers-first'` (default) stops accepting and drains requests, then closes the service;
   * `'service-first'` closes the service first (the worker: its jobs in progress) while `/health` still answers.
   */
  closeOrder?: 'servers-first' | 'service-first'
  /** The `msg` of the ready line, which says the service is ready for traffic (and for SIGTERM). */
  readyMessage: string
  /** What the ready line says beyond `url` and `metricsUrl`. */
  readyFields?(config: Config, service: Service): Record<string, unknown>
}

/**
 * Runs a service as a process, the one way for all of them: reads its config, makes its logger, builds and
 * starts it, listens (and on `METRICS_PORT`), drains on SIGTERM or SIGINT and exits 0 (1 past the drain time),
 * exports the spans still buffered, and only then logs its ready line: a signal right after that line drains, never kills. A bad config or a
 * failed start is one line on stderr and exit code 1.
 *
 * @example
 * serve({ name: 'provider', env: process.env, loadConfig: () => loadProviderConfig(process.env), create: createProvider,
 *   readyMessage: 'provider listening' })
 */
export function serve<Config extends ServedConfig, Service extends RunnableService>(
  options: ServeOptions<Config, Service>,
): void {
  const { name, env, loadConfig, create, closeOrder = 'servers-first', readyMessage, readyFields } = options
  runMain(name, async () => {
    const config = loadConfig()
    const tracing = await startTracing({ serviceName: name, env: env ?? {} })
    const logger = createLogger({ name, level: config.logLevel })
    for (const warning of config.warnings ?? []) logger.warn(warning)
    const service = await create(config, logger)
    await service.start()
    const limits = config.server
    // HOST (the sandbox: 127.0.0.1) binds both; unset, every interface.
    const host = config.ops.host
    const server = await listen(service.app, { port: config.port, host, tls: config.tls, limits })
    const metrics = await listenMetrics(service.registry, { port: config.ops.metricsPort, host, limits })
    const closeServers = async () => void (await Promise.all([server.close(), metrics?.close()]))
    onShutdownSignal(
      logger,
      async () => {
        // The flush gets what the shutdown budget has left (a second of it kept for the exit), at most 2 s.
        const flushBy = Date.now() + limits.drainTimeoutMs + SHUTDOWN_MARGIN_MS - 1000
        if (closeOrder === 'service-first') await service.close()
        await closeServers()
        if (closeOrder === 'servers-first') await service.close()
        // Last: the spans of the work just drained are exported before the process exits.
        await tracing.shutdown(Math.max(0, Math.min(TRACING_FLUSH_MS, flushBy - Date.now())))
      },
      { drainTimeoutMs: limits.drainTimeoutMs },
    )
    const fields = { url: server.url, metricsUrl: metrics?.url, ...readyFields?.(config, service) }
    logger.info(fields, readyMessage)
  })
}
