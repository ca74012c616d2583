import type { Logger } from './create-logger'
import { createLogThrottle } from './create-log-throttle'

/**
 * Logs the server errors (5xx) a service answers, never the client errors: the first of a kind with its stack,
 * then, while the same kind repeats within `windowMs` (a dependency down), one line per window with a count.
 *
 * @example
 * const logServerError = createServerErrorLog({ logger })
 * logServerError(error, toErrorAnswer(error, table), { method: 'POST', path: '/webhooks/pf' })
 */
export function createServerErrorLog({ logger, windowMs = 10_000 }: { logger: Logger; windowMs?: number }) {
  const throttle = createLogThrottle({ windowMs })
  return (
    error: unknown,
    { status, code }: { status: number; code: string | undefined },
    { method, path }: { method?: string; path: string },
  ): void => {
    if (status < 500) return
    const kind = code ?? (error instanceof Error ? `${error.name}: ${error.message}` : 'unknown')
    throttle(`${status} ${kind}`, (suppressed) =>
      suppressed === 0
        ? logger.error({ err: error, method, path }, 'request failed')
        : logger.error({ status, code: kind, suppressed, windowMs }, 'request failed, repeatedly'),
    )
  }
}
