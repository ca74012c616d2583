import {
  readIdentityProviderSettings,
  type AccountAdoption,
  type IdentityProviderSettings,
} from '@pf/idp-clients'
import {
  createEnvReader,
  readOpsSettings,
  readServerLimits,
  type Env,
  type OpsSettings,
  type ServerLimits,
} from '@pf/service-kit'
import { readExchangeGrant, type ExchangeGrantConfig } from './exchange-grant-settings'

export interface ExchangeConfig {
  port: number
  logLevel: string
  applicationId: string
  marketplace: {
    jwksUrl: string
    issuer: string
    clockToleranceSec: number
    /** Oldest `iat` accepted, in seconds, when a token carries one; undefined (`off`): no limit. */
    maxTokenAgeSec: number | undefined
    /** Least time between two JWKS fetches caused by unknown `kid`s. */
    jwksCooldownMs: number
  }
  /** `IDP_STYLE`, `REALM_*`, `TENANT_*`: read by @pf/idp-clients, as the webhook worker reads them. */
  idp: IdentityProviderSettings
  /** `EXCHANGE_GRANT` and the assertion keys (`readExchangeGrant`). */
  grant: ExchangeGrantConfig
  /** What a 409 on create may do with the existing holder of the email (`unlinked` is read as `verified`). */
  adoption: Exclude<AccountAdoption, 'unlinked'>
  idpTimeoutMs: number
  /** Overall deadline of one exchange; its provider calls and retries stay inside it. */
  deadlineMs: number
  warmCache: { ttlSeconds: number; maxEntries: number }
  /** HTTP time-outs, connection cap and drain time (`HTTP_*`, `SHUTDOWN_DRAIN_MS`). */
  server: ServerLimits
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  ops: OpsSettings
}

/** The exchange's settings, read once at start; throws a `ConfigError` naming every bad one. */
export function loadExchangeConfig(source: Env): ExchangeConfig {
  const env = createEnvReader(source)
  const port = env.int('PORT', { default: 3003, min: 0, max: 65535 })
  const base = {
    port,
    logLevel: env.string('LOG_LEVEL', 'info'),
    applicationId: env.required('PF_APPLICATION_ID', 'the marketplace application id tokens must carry'),
    marketplace: {
      jwksUrl: env.url('MARKETPLACE_JWKS_URL'),
      issuer: env.required('MARKETPLACE_ISSUER'),
      clockToleranceSec: env.int('MARKETPLACE_CLOCK_TOLERANCE_SECONDS', { default: 30, min: 0, max: 300 }),
      maxTokenAgeSec:
        env.optional('MARKETPLACE_MAX_TOKEN_AGE_SECONDS')?.toLowerCase() === 'off'
          ? undefined
          : env.int('MARKETPLACE_MAX_TOKEN_AGE_SECONDS', { default: 3600, min: 1 }),
      jwksCooldownMs: env.int('MARKETPLACE_JWKS_COOLDOWN_SECONDS', { default: 30, min: 0, max: 3600 }) * 1000,
    },
    // `unlinked`, the second wave's name, is read as `verified` (service contract, third wave).
    adoption:
      env.oneOf('ACCOUNT_ADOPTION', ['verified', 'unlinked', 'never'] as const, 'verified') === 'never'
        ? ('never' as const)
        : ('verified' as const),
    idpTimeoutMs: env.int('IDP_TIMEOUT_MS', { default: 5000, min: 100, max: 60_000 }),
    deadlineMs: env.int('EXCHANGE_DEADLINE_MS', { default: 8000, min: 100, max: 120_000 }),
    warmCache: {
      ttlSeconds: env.int('WARM_CACHE_TTL_SECONDS', { default: 300, min: 0 }),
      maxEntries: env.int('WARM_CACHE_MAX_ENTRIES', { default: 10_000, min: 0 }),
    },
    server: readServerLimits(env),
    ops: readOpsSettings(env, { port }),
  }
  const idp = env.include(readIdentityProviderSettings)
  const grant = readExchangeGrant(env, idp.style)
  return env.done({ ...base, idp, grant })
}
