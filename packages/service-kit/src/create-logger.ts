import pino, { type Logger } from 'pino'
import { createLogDestination, type LogDestination } from './create-log-destination'
import { redactUrls } from './redact-urls'
import { traceLogFields } from './trace-log-fields'

export type { Logger }

/** Header and field paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-pf-api-key"]',
  'req.headers["x-pf-signature"]',
  'req.headers.cookie',
  '*.password',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.callbackToken',
  '*.secret',
]

export interface LoggerOptions {
  name: string
  level?: string
  /** Where lines go; tests pass a stream to read them. Default stdout, through `createLogDestination`. */
  destination?: pino.DestinationStream
}

/**
 * A pino JSON logger with the kit's redactions (the fields above, and every address in a line as `redactUrl`
 * shows it, wherever it stands: a message, an error's, a field); a line written inside an active span carries
 * `trace_id` and `span_id`.
 *
 * @example
 * const log = createLogger({ name: 'provider', level: config.logLevel })
 */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceLogFields,
  }
  const target = destination ?? stdoutDestination()
  return pino(options, { write: (line: string) => target.write(redactUrls(line)) })
}

// Kept on stdout itself, not in this module: a process may load the module more than once (Jest does, per
// test file) and each copy would otherwise add its own listeners to the one stdout.
const SHARED = Symbol.for('@pf/service-kit/stdout-log-destination')

/** One destination for all of a process's loggers. */
function stdoutDestination(): LogDestination {
  const stream = process.stdout as NodeJS.WriteStream & { [SHARED]?: LogDestination }
  return (stream[SHARED] ??= createLogDestination({ stream }))
}
