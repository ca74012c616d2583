import type { AccountAdoption } from './account-adoption'
import type { ExchangeAssertions } from './assertion/create-exchange-assertions'
import type { ExchangeAssertionOptions } from './assertion/exchange-assertion'
import type { MarkedPasswordsRemoved } from './realm/create-realm-jwt-bearer'
import type { IdpStyle } from './identity-provider-settings'
import type { NormalizedClaims } from './claims/normalize-claims'
import type { RetryOptions } from './lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from './marketplace-user'
import type { EndUserSessionsInput, EndUserSessionsResult } from './session-ending'
import type { SetupCheck, SetupProblem } from './setup-check'

/** A provider account known to exist (what `syncUser` returned, or what a cache kept of it). */
export interface IdpAccount {
  /** The provider's user id. */
  id: string
  /** Its username at the provider (Keycloak's username, Auth0's email). */
  username: string
}

/** What the caller of a sign-in knows beyond the marketplace JWT. */
export interface SignInContext {
  /** The end user's IP address (Auth0's brute-force protection counts per user when it is forwarded). */
  ip?: string
}

/** Where the provider describes itself and publishes its keys. */
export interface IdpDiscovery {
  /** The OpenID Connect discovery document (`/.well-known/openid-configuration`). */
  url: string
  /** The issuer its tokens carry, as the settings name the server (its discovery document says the public one). */
  issuer: string
  /** Its signing keys (JWKS), for verifying its tokens (`createTokenVerifier`). */
  jwksUri: string
}

/**
 * How a synced user signs in (`EXCHANGE_GRANT` of the exchange): the spec's password derived from the user id and
 * the client secret (`password`, the default), or a password-less grant where the exchange presents an assertion
 * it signs: `token-exchange` is Auth0's Custom Token Exchange (the tenant style; README, "Token exchange"),
 * `jwt-bearer` Keycloak's JWT Authorization Grant (the realm style, 26.5.3+: the account is linked to the
 * provider `providerAlias` with the marketplace userId as its federated user id; no password is set).
 */
export type SignInGrant =
  | { type: 'password' }
  | {
      type: 'token-exchange'
      assertion: ExchangeAssertionOptions
      /** The Token Exchange Profile's `subject_token_type` (default `TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE`). */
      subjectTokenType?: string
    }
  | {
      type: 'jwt-bearer'
      /** The exchange's assertions and the keys its JWKS publishes (`createExchangeAssertions`). */
      assertions: ExchangeAssertions
      /** The realm's identity provider of type "JWT Authorization Grant" whose issuer is the exchange. */
      providerAlias: string
    }

/** What every style takes besides its settings. */
export interface IdentityProviderOptions {
  /** How users sign in (default `{ type: 'password' }`); a style refuses a grant it lacks (IdpMisconfiguredError). */
  signInGrant?: SignInGrant
  /** What the sync may do with an existing holder of the user's email (default `verified`). */
  adoption?: AccountAdoption
  /** Limit of one call to the provider (default 10 000 ms). */
  timeoutMs?: number
  /** Retries of 408, 429, 5xx and network failures (default 2). */
  retry?: RetryOptions
}

/**
 * One identity provider, whatever its vendor: what the exchange, a `doctor` and the webhook worker need of it.
 * Both styles implement it (`createIdentityProvider` picks one from the settings); how a user signs in (today a
 * password derived from the user id and the client secret) is the implementation's business, never the caller's.
 *
 * @example
 * const idp = createIdentityProvider(readIdentityProviderSettings(process.env).settings)
 * const synced = await idp.syncUser(user)
 * const tokens = await idp.signIn(synced, user, { ip })
 */
export interface IdentityProvider {
  readonly style: IdpStyle
  readonly discovery: IdpDiscovery

  /**
   * Sync a user: creates or updates the one account of this marketplace user (found by its `pfUserId` link
   * before anything is created or adopted), so that it can sign in and carries the marketplace attributes;
   * adopts the holder of the email only as `adoption` allows. Rejects with `IdpAccountConflictError` for an
   * account that belongs to someone else (nothing changed).
   */
  syncUser(user: MarketplaceUser): Promise<SyncedUser>
  /** Obtain tokens for an account `syncUser` just returned, with the recoveries the style allows. */
  signIn(synced: SyncedUser, user: MarketplaceUser, context?: SignInContext): Promise<IdpTokens>
  /**
   * Obtain tokens for an account known to exist (a cache's warm path): one round trip. `IdpInvalidGrantError`
   * means the account or its credentials changed behind the caller's back: sync again.
   */
  grant(account: IdpAccount, user: MarketplaceUser, context?: SignInContext): Promise<IdpTokens>
  /**
   * What `/auth/logout` takes: absent, a refresh token; `access_token` where the answers carry none (the JWT
   * Authorization Grant).
   */
  readonly logoutToken?: 'access_token'
  /** Revoke: ends what a token it issued gives (a refresh token: its session; an access token: itself). */
  revoke(token: string): Promise<void>
  /**
   * Where a password-less mode is on: removes every password the exchange set (marked on the account when set),
   * with its mark. Absent where the provider has no password-less mode.
   */
  removeMarkedPasswords?(): Promise<MarkedPasswordsRemoved>
  /** End sessions: see `endUserSessions` (`session.ended`). */
  endUserSessions(input: EndUserSessionsInput): Promise<EndUserSessionsResult>

  /**
   * Check the set-up, at a service's start: rejects when the provider cannot be served (Keycloak older than 24,
   * or whose version cannot be read); resolves to the problems that leave it usable but unsafe (to be logged).
   */
  checkAtStart(): Promise<SetupProblem[]>
  /** Check the set-up, for a `doctor`: what the provider's admin API tells of it, one check a line. */
  setupChecks(): SetupCheck[]

  /** The claims of an access token it issued (read, not verified: it just came from the provider), null if opaque. */
  claimsOf(accessToken: string): NormalizedClaims | null
  /** Resolves when the provider answers (readiness). */
  ping(): Promise<void>
}
