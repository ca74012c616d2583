// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out in the
// emulator on purpose, not imported from @pf/idp-clients: it is an independent check of the client, not its echo.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { createAuth0AuthenticationRouter } from './auth0-authentication-router'
import { requireManagementToken } from './auth0-management-access'
import { createAuth0RefreshTokensRouter } from './auth0-refresh-tokens-router'
import { createAuth0RoleRouter } from './auth0-role-router'
import { createAuth0SessionsRouter } from './auth0-sessions-router'
import { createAuth0SettingsRouter } from './auth0-settings-router'
import { createAuth0TokenExchangeProfilesRouter } from './auth0-token-exchange-profiles-router'
import {
  createAuth0TenantState,
  credentialId,
  type Auth0ConnectionSpec,
  type Auth0Permission,
  type EmulatedAuth0Session,
  type EmulatedAuth0User,
  type EmulatedRefreshToken,
  type EmulatedAuth0Client,
  type EmulatedTokenExchangeProfile,
} from './auth0-tenant-state'
import type { EmulatedAuth0Action } from './auth0-actions'
import type { IpThrottleStage } from './auth0-ip-throttle'
import type { EmulatedPostLoginAction } from './auth0-post-login'
import { createAuth0UserLinksRouter } from './auth0-user-links-router'
import { createAuth0UsersRouter } from './auth0-users-router'
import { installControls, type EmulatorControls, type Fault } from './emulator-controls'
import { listening } from '../lib/listening'

export type {
  Auth0ConnectionSpec,
  Auth0Permission,
  EmulatedAuth0Session,
  EmulatedAuth0User,
  EmulatedRefreshToken,
  EmulatedAuth0Client,
  EmulatedTokenExchangeProfile,
} from './auth0-tenant-state'
export type { EmulatedAuth0Action } from './auth0-actions'
export type { IpThrottleStage } from './auth0-ip-throttle'
export type { EmulatedPostLoginAction } from './auth0-post-login'

export interface Auth0EmulatorOptions {
  domain?: string
  /**
   * `scopes`: what its machine-to-machine grant on the Management API allows (default: all it could need);
   * `tokenExchange`, `firstParty`, `oidcConformant`, `trustTokenEndpointIpHeader`: see `EmulatedAuth0Client`.
   */
  clients?: EmulatedAuth0Client[]
  /** Names of database connections, or specs (`{ name, database: false }` for a social connection). */
  connections?: (string | Auth0ConnectionSpec)[]
  /** The tenant's default directory for the password grant; `null` reproduces the "not configured" error. */
  defaultConnection?: string | null
  roles?: { id: string; name: string; permissions?: Auth0Permission[] }[]
  /** The tenant's organizations. */
  organizations?: { id: string; name: string }[]
  /**
   * The Enterprise plan's `/users/{id}/sessions` and `/users/{id}/refresh-tokens` endpoints (default true);
   * false: a tenant without them, which revokes refresh tokens through `/device-credentials` only.
   */
  sessionEndpoints?: boolean
  /** The namespace the post-login Action writes custom claims under (must end with `/`). */
  namespace?: string
  /**
   * How long after a write the user search (`GET /users?q=`) sees it: the search index is eventually
   * consistent (Auth0's user-search best practices). `users-by-email` and `GET /users/{id}` are immediate.
   */
  searchLagMs?: number
  /** Deployed Actions of the `custom-token-exchange` trigger, each run from its source file in this process. */
  actions?: EmulatedAuth0Action[]
  /** Custom Token Exchange Profiles that exist at start (more through the Management API). */
  tokenExchangeProfiles?: Pick<EmulatedTokenExchangeProfile, 'name' | 'subject_token_type' | 'action_id'>[]
  /** Suspicious IP Throttling's `pre-custom-token-exchange` stage (default 10 attempts, one back every 10 min). */
  suspiciousIpThrottling?: Partial<IpThrottleStage>
  /**
   * The Login flow's post-login Action, run from its source file after every sign-in (password, refresh,
   * token exchange) for the tokens' custom claims; default: the claims the repository's Action writes.
   */
  postLoginAction?: EmulatedPostLoginAction
  latencyMs?: number
  /** Default: a free port. */
  port?: number
}

export interface Auth0Emulator extends EmulatorControls {
  /** Where to send requests (plain HTTP on 127.0.0.1). */
  url: string
  domain: string
  /** Issuer of its tokens: `https://{domain}/`. */
  issuer: string
  namespace: string
  users: Map<string, EmulatedAuth0User>
  seedUser(user: Partial<EmulatedAuth0User> & { email: string; password: string }): EmulatedAuth0User
  /** A browser login of the user: a session of the tenant's session layer. Returns its id. */
  startSession(userId: string): string
  sessionsOf(userId: string): EmulatedAuth0Session[]
  refreshTokensOf(userId: string): EmulatedRefreshToken[]
  setSearchLag(ms: number): void
  /** Management tokens issued so far. */
  managementTokensIssued(): number
  /** Changes an Action's secrets (as a new deployment would). */
  setActionSecrets(actionId: string, secrets: Record<string, string>): void
  /** Custom Token Exchange Action runs so far. */
  exchangeActionRuns(): number
  /** Invalid subject tokens counted for `ip` by Suspicious IP Throttling. */
  suspiciousIpFailures(ip: string): number
  /** The next `times` requests (matching `match`) get the Management API's 429 with its rate-limit headers. */
  rateLimit(times: number, match?: Fault['match']): void
  stop(): Promise<void>
}

/** The Management API's global rate limit, as its 429 answers it. */
const rateLimited = (times: number, match?: Fault['match']): Fault => ({
  times,
  match,
  status: 429,
  body: {
    statusCode: 429,
    error: 'Too Many Requests',
    message: 'Global limit has been reached',
    errorCode: 'too_many_requests',
  },
  headers: {
    'x-ratelimit-limit': '50',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000)),
  },
})

/**
 * An HTTP emulator of an Auth0 tenant: the Authentication API's `/oauth/token` (client credentials for the
 * Management API, password grant, Custom Token Exchange running the tenant's Action from its source file) and
 * `/oauth/revoke`, the JWKS, and the Management API v2 calls of the
 * identity exchange, with the real answers' shapes (see the spec's idp-facts.md). Access tokens asked for
 * with an audience are JWTs carrying namespaced claims, as the post-login Action writes them.
 *
 * @example
 * const auth0 = await startAuth0Emulator({ clients: [{ clientId: 'app', clientSecret: 's' }] })
 * createTenantClient({ domain: auth0.domain, baseUrl: auth0.url, clientId: 'app', clientSecret: 's' })
 */
export async function startAuth0Emulator({
  domain = 'pf-test.eu.auth0.com',
  clients = [{ clientId: 'pf-exchange', clientSecret: 'pf-exchange-secret' }],
  connections = ['Username-Password-Authentication'],
  defaultConnection,
  roles = [{ id: 'rol_pfUser0000001', name: 'pf-user' }],
  organizations = [],
  sessionEndpoints = true,
  namespace = 'https://pf.example.com/',
  searchLagMs = 1000,
  actions = [],
  tokenExchangeProfiles = [],
  suspiciousIpThrottling,
  postLoginAction,
  latencyMs = 0,
  port = 0,
}: Auth0EmulatorOptions = {}): Promise<Auth0Emulator> {
  // The tenant's state (createAuth0TenantState), then a router per API: the Authentication API, and the
  // Management API's sessions, user links, roles and users behind its token check.
  const state = createAuth0TenantState({
    domain,
    clients,
    connections,
    defaultConnection,
    roles,
    organizations,
    sessionEndpoints,
    namespace,
    searchLagMs,
    actions,
    tokenExchangeProfiles,
    suspiciousIpThrottling,
    postLoginAction,
  })
  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })
  app.use(createAuth0AuthenticationRouter(state))
  app.use(
    '/api/v2',
    requireManagementToken(state),
    createAuth0SessionsRouter(state),
    createAuth0RefreshTokensRouter(state),
    createAuth0UserLinksRouter(state),
    createAuth0RoleRouter(state),
    createAuth0SettingsRouter(state),
    createAuth0TokenExchangeProfilesRouter(state),
    createAuth0UsersRouter(state),
  )

  const server = await listening(app.listen(port, '127.0.0.1'))
  return {
    ...controls,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    domain,
    issuer: state.issuer,
    namespace,
    users: state.users,
    // A seeded user existed before the test: the search sees it at once.
    seedUser: (input) => state.addUser(input, 0),
    startSession: (userId) => {
      const id = credentialId('ses')
      state.sessions.set(id, { id, user_id: userId, created_at: new Date().toISOString() })
      return id
    },
    sessionsOf: (userId) => [...state.sessions.values()].filter((s) => s.user_id === userId),
    refreshTokensOf: (userId) => [...state.refreshTokens.values()].filter((t) => t.userId === userId),
    setSearchLag: state.setSearchLag,
    managementTokensIssued: state.managementTokensIssued,
    setActionSecrets: (actionId, secrets) => {
      const action = state.actions.get(actionId)
      if (!action) throw new Error(`no action ${actionId}`)
      action.secrets = { ...secrets }
    },
    exchangeActionRuns: () => state.exchangeRuns.count,
    suspiciousIpFailures: (ip) => state.ipThrottle.failuresOf(ip),
    rateLimit: (times, match) => controls.injectFault(rateLimited(times, match)),
    stop: () =>
      new Promise<void>((resolve) => {
        controls.releaseHung()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
