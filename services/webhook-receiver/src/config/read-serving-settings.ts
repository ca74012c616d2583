import {
  readOpsSettings,
  readServerLimits,
  type EnvReader,
  type OpsSettings,
  type ServerLimits,
} from '@pf/service-kit'

/** What a serving process (the receiver, the worker's ops server) reads beside its own settings. */
export interface ServingConfig {
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
}

/** The shared server limits and ops settings (root README, "Every service"); tracing reads its own at start. */
export function readServingSettings(
  env: EnvReader,
  port: number,
  limitDefaults: Partial<ServerLimits> = {},
): ServingConfig {
  return {
    server: readServerLimits(env, limitDefaults),
    ops: readOpsSettings(env, { port }),
  }
}
