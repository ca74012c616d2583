import type { Env } from './env-reader'
import { ConfigError } from './config-error'

/**
 * What `startTracing` returns: `shutdown(timeoutMs)` exports the spans still buffered (a no-op when tracing is
 * off) and resolves after at most `timeoutMs` (default 2 s) whatever the collector does: the SDK's own export
 * time-out is 10 s, and a dead collector must never hold a process past its drain time.
 */
export interface Tracing {
  enabled: boolean
  shutdown(timeoutMs?: number): Promise<void>
}

export const TRACING_FLUSH_MS = 2000

export interface StartTracingOptions {
  /** The default `service.name`; `OTEL_SERVICE_NAME` wins. */
  serviceName: string
  /** The process's environment: the SDK is configured only by the standard `OTEL_*` variables in it. */
  env: Env
}

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc']
const OFF: Tracing = { enabled: false, shutdown: async () => {} }

/**
 * Starts the OpenTelemetry Node SDK when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is
 * set and `OTEL_SDK_DISABLED` is not `true`; otherwise loads nothing. Only traces: no metrics or logs exporter
 * (Prometheus and stdout have those) and no require-hook instrumentation (bundled builds would miss it): our
 * spans are explicit, through `@opentelemetry/api`. A protocol outside the spec's three is a `ConfigError`.
 *
 * @example
 * const tracing = await startTracing({ serviceName: 'provider', env: process.env })
 */
export async function startTracing({ serviceName, env }: StartTracingOptions): Promise<Tracing> {
  const set = (name: string) => (env[name]?.trim() ?? '') !== ''
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return OFF
  if (!set('OTEL_EXPORTER_OTLP_ENDPOINT') && !set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) return OFF
  // Any other exporter (console) would write spans to stdout, which is the log stream.
  const exporter = env.OTEL_TRACES_EXPORTER?.trim()
  if (exporter === 'none') return OFF
  if (exporter && exporter !== 'otlp')
    throw new ConfigError([`OTEL_TRACES_EXPORTER must be otlp or none (got "${exporter}")`])
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const value = env[name]?.trim()
    if (value && !PROTOCOLS.includes(value))
      throw new ConfigError([`${name} must be one of ${PROTOCOLS.join(', ')} (got "${value}")`])
  }
  // Loaded here only: a process without a collector never loads the SDK.
  const { NodeSDK } = await import('@opentelemetry/sdk-node')
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  })
  sdk.start()
  let done: Promise<void> | undefined
  return {
    enabled: true,
    shutdown(timeoutMs = TRACING_FLUSH_MS) {
      done ??= sdk.shutdown().catch(() => {})
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs)
        timer.unref()
        void done!.then(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    },
  }
}
