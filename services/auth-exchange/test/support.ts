import { Writable } from 'node:stream'
import {
  createLogger,
  createMetricsRegistry,
  DEFAULT_OPS_SETTINGS,
  DEFAULT_SERVER_LIMITS,
  listen,
  type RunningServer,
} from '@pf/service-kit'
import {
  startAuth0Emulator,
  startKeycloakEmulator,
  type Auth0Emulator,
  type Auth0EmulatorOptions,
  type KeycloakEmulator,
  type KeycloakEmulatorOptions,
} from '@pf/testkit/emulators'
import { startMarketplaceIssuer, type MarketplaceIssuer } from '@pf/testkit/platform'
import type { Cleanup } from '@pf/testkit'
import type { ExchangeConfig } from '../src/config'
import { createExchange } from '../src/create-exchange'

export const APP_ID = 'app_1'
export const CLIENT_SECRET = 'pf-exchange-secret'
export const AUDIENCE = 'https://api.pf.example.com'
export type Style = 'realm-24' | 'realm-25' | 'realm-26' | 'tenant'

export interface World {
  style: Style
  issuer: MarketplaceIssuer
  keycloak?: KeycloakEmulator
  auth0?: Auth0Emulator
  /** Users in the identity provider. */
  userCount(): number
  requestCount(): number
  stop(): Promise<void>
}

export interface WorldOptions {
  unmanagedAttributes?: boolean
  userProfile?: 'default' | 'names-optional'
  /** The Auth0 emulator's search lag (default: its own, 1 s). */
  searchLagMs?: number
  /** Auth0 connections (default: the tenant's default database connection only). */
  connections?: (string | { name: string; database?: boolean })[]
  /** The Auth0 tenant's roles (default: pf-user only). */
  roles?: { id: string; name: string }[]
  /** What the Keycloak emulator's serverinfo reports. */
  serverVersion?: string
  /** Any other Keycloak emulator option (roles, groups, organizations, …). */
  keycloak?: KeycloakEmulatorOptions
  /** Any other Auth0 emulator option (plan, scopes, …). */
  auth0?: Auth0EmulatorOptions
}

export async function startWorld(
  style: Style,
  {
    unmanagedAttributes = true,
    userProfile,
    searchLagMs,
    connections,
    serverVersion,
    roles,
    keycloak: keycloakOptions,
    auth0: auth0Options,
  }: WorldOptions = {},
): Promise<World> {
  const issuer = await startMarketplaceIssuer()
  if (style === 'tenant') {
    const auth0 = await startAuth0Emulator({
      clients: [{ clientId: 'pf-exchange', clientSecret: CLIENT_SECRET }],
      ...(searchLagMs !== undefined ? { searchLagMs } : {}),
      ...(connections ? { connections } : {}),
      ...(roles ? { roles } : {}),
      ...auth0Options,
    })
    return {
      style,
      issuer,
      auth0,
      userCount: () => auth0.users.size,
      requestCount: () => auth0.requests.length,
      stop: async () => void (await Promise.all([auth0.stop(), issuer.stop()])),
    }
  }
  const version = Number(style.split('-')[1]) as 24 | 25 | 26
  const keycloak = await startKeycloakEmulator({
    version,
    clients: [
      {
        clientId: 'pf-exchange',
        secret: CLIENT_SECRET,
        serviceAccountRoles: ['manage-users', 'view-users', 'query-users', 'view-realm'],
      },
    ],
    unmanagedAttributes,
    ...(userProfile ? { userProfile } : {}),
    ...(serverVersion ? { serverVersion } : {}),
    ...keycloakOptions,
  })
  return {
    style,
    issuer,
    keycloak,
    userCount: () => keycloak.users.size,
    requestCount: () => keycloak.requests.length,
    stop: async () => void (await Promise.all([keycloak.stop(), issuer.stop()])),
  }
}

/**
 * The service's configuration for a world of emulators, as main.ts would read it from the environment. The
 * time-out is generous by default (a hang guard, not a budget); time-out tests pass a short one.
 */
export function configFor(world: World, timeoutMs = 30_000): ExchangeConfig {
  const base = {
    port: 0,
    logLevel: 'debug',
    applicationId: APP_ID,
    marketplace: {
      jwksUrl: world.issuer.jwksUrl,
      issuer: world.issuer.issuer,
      clockToleranceSec: 5,
      maxTokenAgeSec: 3600,
      jwksCooldownMs: 30_000,
    },
    adoption: 'verified' as const,
    grant: { mode: 'password' as const },
    idpTimeoutMs: timeoutMs,
    // A hang guard like the time-out; deadline tests pass their own.
    deadlineMs: 60_000,
    warmCache: { ttlSeconds: 60, maxEntries: 1000 },
    server: DEFAULT_SERVER_LIMITS,
    ops: DEFAULT_OPS_SETTINGS,
  }
  if (world.auth0) {
    const { domain, url, namespace } = world.auth0
    return {
      ...base,
      idp: {
        style: 'tenant',
        tenant: {
          domain,
          baseUrl: url,
          clientId: 'pf-exchange',
          clientSecret: CLIENT_SECRET,
          connection: 'Username-Password-Authentication',
          audience: AUDIENCE,
          claimNamespace: namespace,
          forwardedFor: false,
        },
      },
    }
  }
  return {
    ...base,
    idp: {
      style: 'realm',
      realm: {
        serverUrl: world.keycloak!.url,
        realm: 'pf',
        clientId: 'pf-exchange',
        clientSecret: CLIENT_SECRET,
        adminAuth: 'password',
        adminUser: 'admin',
        adminPassword: 'admin',
        version: 'auto',
      },
    },
  }
}

/** What POST /auth/exchange answers: the contract's success fields, or `{error, error_description}`. */
export interface ExchangeAnswer {
  access_token: string
  refresh_token: string
  token_type: string
  expires_in: number
  user: { id: string; pfUserId: string; orgId: string; applicationId: string; email: string; roles: string[] }
  error?: string
  error_description?: string
}

export interface Exchange extends RunningServer {
  logs: string[]
  post(
    token?: string,
    authorization?: string,
  ): Promise<{ status: number; headers: Headers; body: ExchangeAnswer }>
  logout(refreshToken?: unknown): Promise<{ status: number; body: unknown }>
}

/** One instance of the exchange service (its own warm cache) wired to the world's emulators. */
export async function startExchange(
  world: World,
  {
    timeoutMs = 30_000,
    configure = (config) => config,
  }: { timeoutMs?: number; configure?: (config: ExchangeConfig) => ExchangeConfig } = {},
): Promise<Exchange> {
  const logs: string[] = []
  const logger = createLogger({
    name: 'test',
    level: 'debug',
    destination: new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }),
  })
  const { app } = createExchange(configure(configFor(world, timeoutMs)), {
    logger,
    registry: createMetricsRegistry('test'),
  })
  const running = await listen(app, { port: 0, host: '127.0.0.1' })
  return {
    ...running,
    logs,
    async post(token, authorization = token === undefined ? undefined : `Bearer ${token}`) {
      const res = await fetch(`${running.url}/auth/exchange`, {
        method: 'POST',
        headers: authorization ? { authorization } : {},
        signal: AbortSignal.timeout(8000),
      })
      return { status: res.status, headers: res.headers, body: (await res.json()) as ExchangeAnswer }
    },
    async logout(refreshToken) {
      const res = await fetch(`${running.url}/auth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      })
      return { status: res.status, body: res.status === 204 ? null : await res.json() }
    },
  }
}

export const claims = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  orgId: 'org_1',
  applicationId: APP_ID,
  email: `${userId}@example.com`,
  ...extra,
})

/** The config with some realm settings changed (a tenant config is returned as it is). */
export const withRealmSettings = (
  config: ExchangeConfig,
  realm: Partial<Extract<ExchangeConfig['idp'], { style: 'realm' }>['realm']>,
): ExchangeConfig =>
  config.idp.style === 'realm'
    ? { ...config, idp: { ...config.idp, realm: { ...config.idp.realm, ...realm } } }
    : config

/** The config with some tenant settings changed (a realm config is returned as it is). */
export const withTenantSettings = (
  config: ExchangeConfig,
  tenant: Partial<Extract<ExchangeConfig['idp'], { style: 'tenant' }>['tenant']>,
): ExchangeConfig =>
  config.idp.style === 'tenant'
    ? { ...config, idp: { ...config.idp, tenant: { ...config.idp.tenant, ...tenant } } }
    : config

/** `startWorld`, its stop registered on `cleanup` as soon as it runs. */
export const startWorldOn = async (cleanup: Cleanup, ...args: Parameters<typeof startWorld>) =>
  cleanup.add(await startWorld(...args), (world) => world.stop())
