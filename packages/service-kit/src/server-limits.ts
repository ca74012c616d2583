import type { EnvReader } from './env-reader'

/** How long the HTTP server waits for a client, how many it holds, and how long it drains on shutdown. */
export interface ServerLimits {
  /** Until the request's headers are complete (slow-header clients, Slowloris). */
  headersTimeoutMs: number
  /** Until the whole request, body included, has arrived. */
  requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number
  /** Connections held at once; past it, new ones are closed on arrival. */
  maxConnections: number
  /** On SIGTERM, how long in-flight requests may finish before connections are cut. */
  drainTimeoutMs: number
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
  drainTimeoutMs: 10_000,
}

/**
 * The server limits from the settings every service shares: `HTTP_HEADERS_TIMEOUT_MS`,
 * `HTTP_REQUEST_TIMEOUT_MS`, `HTTP_KEEP_ALIVE_TIMEOUT_MS`, `HTTP_MAX_CONNECTIONS` and `SHUTDOWN_DRAIN_MS`.
 * `defaults` lets a service start from its own (the provider drains longer: its requests wait on outbound
 * calls).
 */
export function readServerLimits(env: EnvReader, defaults: Partial<ServerLimits> = {}): ServerLimits {
  const base = { ...DEFAULT_SERVER_LIMITS, ...defaults }
  const limits: ServerLimits = {
    headersTimeoutMs: env.int('HTTP_HEADERS_TIMEOUT_MS', { default: base.headersTimeoutMs, min: 1000 }),
    requestTimeoutMs: env.int('HTTP_REQUEST_TIMEOUT_MS', { default: base.requestTimeoutMs, min: 1000 }),
    keepAliveTimeoutMs: env.int('HTTP_KEEP_ALIVE_TIMEOUT_MS', { default: base.keepAliveTimeoutMs, min: 0 }),
    maxConnections: env.int('HTTP_MAX_CONNECTIONS', { default: base.maxConnections, min: 1 }),
    drainTimeoutMs: env.int('SHUTDOWN_DRAIN_MS', { default: base.drainTimeoutMs, min: 0 }),
  }
  // Node refuses a server whose header time-out is longer than its request time-out.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    env.problem(
      `HTTP_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not be longer than HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`,
    )
  }
  return limits
}
