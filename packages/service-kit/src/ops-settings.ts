import { isIP } from 'node:net'
import type { EnvReader } from './env-reader'

/** How a service answers its operators: how often `/ready` may reach its dependencies, and where `/metrics` is. */
export interface OpsSettings {
  /** `READY_CACHE_MS`: one readiness outcome serves every `/ready` call for this long (0: each call checks). */
  readyCacheMs: number
  /** `METRICS_PORT`: `/metrics` is served on this port only; undefined: on the main port. */
  metricsPort?: number
  /** `HOST`: the address the service binds to (the sandbox: 127.0.0.1); undefined: every interface. */
  host?: string
}

export const DEFAULT_OPS_SETTINGS: Readonly<OpsSettings> = { readyCacheMs: 2000 }

/**
 * The settings every service shares for its ops endpoints: `READY_CACHE_MS`, `METRICS_PORT` and `HOST`. `port` is
 * the service's own `PORT`, which the metrics port must not take.
 *
 * @example
 * const ops = readOpsSettings(env, { port })
 */
export function readOpsSettings(env: EnvReader, { port }: { port: number }): OpsSettings {
  const readyCacheMs = env.int('READY_CACHE_MS', {
    default: DEFAULT_OPS_SETTINGS.readyCacheMs,
    min: 0,
    max: 600_000,
  })
  const host = env.optional('HOST')
  if (host !== undefined && !isIP(host) && !/^[a-z0-9.-]+$/i.test(host))
    env.problem(`HOST must be an address or a host name (got "${host}")`)
  const bound = host ? { host } : {}
  if (env.optional('METRICS_PORT') === undefined) return { readyCacheMs, ...bound }
  const metricsPort = env.int('METRICS_PORT', { default: 0, min: 0, max: 65535 })
  if (metricsPort !== 0 && metricsPort === port)
    env.problem(`METRICS_PORT must differ from PORT (both ${port}): the public port must not show /metrics`)
  return { readyCacheMs, metricsPort, ...bound }
}
