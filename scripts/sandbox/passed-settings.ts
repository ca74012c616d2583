/**
 * The caller's settings the sandbox hands to the processes it starts, by name: tracing, the log level, the
 * provider's lists and their refresh, the worker's retries and handling. Nothing else of the caller's
 * environment reaches them: never REDIS_URL (the sandbox chooses its Redis and names it) nor AWS_* (the
 * provider gets the sandbox's S3).
 */
export const PASSED_SETTINGS: (string | RegExp)[] = [
  /^OTEL_/,
  'LOG_LEVEL',
  'PROVIDER_DATA_DIR',
  'SANCTIONS_SOURCES',
  'SANCTIONS_REFRESH_INTERVAL',
  'SANCTIONS_LOAD_TIMEOUT_MS',
  'SANCTIONS_MAX_BYTES',
  'WEBHOOK_JOB_ATTEMPTS',
  'WEBHOOK_JOB_BACKOFF_MS',
  /^WORKER_/,
  'WEBHOOK_ONCE_TTL_SECONDS',
  // The receiver, the worker and dead-letters must agree on it: each reads it.
  'WEBHOOK_ORDERING',
  // The same for the queue's shards (the layout Redis records refuses another number).
  'QUEUE_SHARDS',
  'QUEUE_RESHARD_FROM',
]

/** The allow-list as the banner and `--help` say it. */
export const PASSED_SETTINGS_TEXT =
  'OTEL_*, LOG_LEVEL, PROVIDER_DATA_DIR, SANCTIONS_SOURCES/_REFRESH_INTERVAL/_LOAD_TIMEOUT_MS/_MAX_BYTES, WEBHOOK_JOB_ATTEMPTS/_BACKOFF_MS, WORKER_*, WEBHOOK_ONCE_TTL_SECONDS, WEBHOOK_ORDERING, QUEUE_SHARDS, QUEUE_RESHARD_FROM'

/** The allowed settings set (not empty) in `env`, by name. */
export function passedSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .sort(([a], [b]) => a.localeCompare(b))
      .filter(
        (entry): entry is [string, string] =>
          (entry[1]?.trim() ?? '') !== '' &&
          PASSED_SETTINGS.some((allowed) =>
            typeof allowed === 'string' ? allowed === entry[0] : allowed.test(entry[0]),
          ),
      ),
  )
}

const SECRET_NAME = /HEADERS|TOKEN|SECRET|PASSWORD|KEY|AUTH|CREDENTIAL/i

/**
 * A setting as the banner shows it: `***` for a secret's value (OTEL_EXPORTER_OTLP_HEADERS carries API keys), and
 * in a URL (a list of them too) what stands before an `@` and after a `?`, where tokens go.
 */
export function redactSetting(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return '***'
  return value.replace(/(\/\/)[^/@\s,]*@/g, '$1***@').replace(/\?[^,\s]*/g, '?***')
}
