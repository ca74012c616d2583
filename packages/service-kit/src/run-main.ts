import type { Logger } from 'pino'
import { ConfigError } from './config-error'
import { redactUrls } from './redact-urls'

/**
 * Runs a service's start-up; a bad configuration or a failed start prints one clear line on stderr and
 * exits with code 1.
 *
 * @example
 * runMain('provider', async () => { const config = loadConfig(process.env); ... })
 */
export function runMain(name: string, start: () => Promise<void>): void {
  start().catch((error: unknown) => {
    const message =
      error instanceof ConfigError ? error.message : `failed to start: ${(error as Error)?.message ?? error}`
    // One line, whatever the cause's message holds (a parser's error may span several), and no address's secrets.
    process.stderr.write(`${name}: ${redactUrls(message.replace(/\s*\n\s*/g, ' '))}\n`)
    process.exit(1)
  })
}

/** Time allowed past the drain for what follows it (closing Redis and S3 clients, the last log lines). */
export const SHUTDOWN_MARGIN_MS = 5000

/**
 * On SIGTERM or SIGINT, runs `shutdown` once (stop accepting, drain in-flight work, close connections), then
 * exits 0; exits 1 if it is not done 5 s after `drainTimeoutMs` (the service's `SHUTDOWN_DRAIN_MS`).
 */
export function onShutdownSignal(
  logger: Logger,
  shutdown: () => Promise<void>,
  { drainTimeoutMs = 25_000 }: { drainTimeoutMs?: number } = {},
): void {
  const timeoutMs = drainTimeoutMs + SHUTDOWN_MARGIN_MS
  let started = false
  const handle = (signal: NodeJS.Signals) => {
    if (started) return
    started = true
    logger.info({ signal }, 'shutting down: draining in-flight work')
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out')
      process.exit(1)
    }, timeoutMs)
    timer.unref()
    shutdown().then(
      () => {
        logger.info('shutdown complete')
        process.exit(0)
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', handle)
  process.once('SIGINT', handle)
}
