import type { Logger } from 'pino'
import {
  DEFAULT_SERVER_LIMITS,
  listen,
  listenMetrics,
  onShutdownSignal,
  type ServerLimits,
} from '@pf/service-kit'
import type { Provider } from './create-provider'

export interface ServeProviderOptions {
  /** 0: a free port. */
  port: number
  /** Default: every interface. */
  host?: string
  logger: Logger
  /** Header, request and keep-alive time-outs, connection cap, and the drain time on SIGTERM. */
  limits?: Partial<ServerLimits>
  /** `/metrics` on this port only (then not on `port`). */
  metricsPort?: number
  /** Exit the process on SIGTERM / SIGINT once drained (default true); false: the caller calls `stop`. */
  exitOnSignal?: boolean
}

export interface ServedProvider {
  url: string
  port: number
  metricsUrl?: string
  /** Stops accepting, drains the requests in flight (their deliveries and callbacks), closes the provider. */
  stop(): Promise<void>
}

/**
 * Serves a provider: bounded HTTP server, `/metrics` on its own port when asked, `ready()` and `start()` first,
 * and on SIGTERM or SIGINT a drain (queries in flight finish, with their callbacks) then exit 0, or 1 past
 * the drain time. Give `limits.drainTimeoutMs` at least the whole-delivery limit plus the outbound time-out.
 */
export async function serveProvider(
  provider: Provider,
  { port, host, logger, limits: given = {}, metricsPort, exitOnSignal = true }: ServeProviderOptions,
): Promise<ServedProvider> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...given }
  await provider.start()
  const server = await listen(provider.app, { port, host, limits })
  const metrics = await listenMetrics(provider.registry, { port: metricsPort, host, limits })
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.all([server.close(), metrics?.close()])
      await provider.close()
    })())
  if (exitOnSignal) onShutdownSignal(logger, stop, { drainTimeoutMs: limits.drainTimeoutMs })
  return { url: server.url, port: server.port, metricsUrl: metrics?.url, stop }
}
