export { deriveRealmPassword, deriveTenantPassword } from './derive-password'
export { decodeJwtPayload } from './decode-jwt-payload'
export { emailOf, namesOf, REALM_USERNAME_PREFIX, realmUsername, syntheticEmail } from './marketplace-user'
export { MARKETPLACE_ATTRIBUTES } from './marketplace-attributes'
export { assertAdoptable } from './account-adoption'
export type { AccountAdoption, AdoptionCandidate } from './account-adoption'
export { runWithDeadline, timeLeft } from './lib/deadline'
export type { RetryOptions } from './lib/http-client'
export type { IdpTokens, MarketplaceUser, SyncedUser } from './marketplace-user'
export {
  IdpAccountConflictError,
  IdpConflictError,
  IdpError,
  IdpInvalidGrantError,
  IdpMisconfiguredError,
  IdpRateLimitedError,
  IdpRejectedError,
  IdpUnavailableError,
  TokenError,
  TokenExpiredError,
  TokenInvalidError,
  TokenKeysUnavailableError,
  TokenNotYetValidError,
} from './errors'
export type { IdpErrorCode, TokenErrorCode } from './errors'
export { PF_USER_ROLE } from './pf-user-role'
export { endUserSessions } from './end-user-sessions'
export type { EndUserSessionsInput, EndUserSessionsResult } from './session-ending'
export { createRealmClient } from './realm/create-realm-client'
export type { RealmClient } from './realm/create-realm-client'
export type { KeycloakRole, KeycloakUser, RealmClientOptions, RealmVersion } from './realm/realm-types'
export { createTenantClient } from './tenant/create-tenant-client'
export { DEFAULT_CONNECTION } from './tenant/tenant-types'
export type { TenantClient } from './tenant/create-tenant-client'
export type { Auth0User, TenantClientOptions } from './tenant/tenant-types'
export { normalizeRealmClaims, normalizeTenantClaims } from './claims/normalize-claims'
export type { NormalizedClaims } from './claims/normalize-claims'
export type { AsymmetricAlgorithm, JwtClaims } from './claims/jwt-claims'
export { createTokenVerifier } from './claims/create-token-verifier'
export type { TokenVerifier, TokenVerifierOptions } from './claims/create-token-verifier'
export { requireIdpToken } from './claims/require-idp-token'
export type { RequireIdpTokenOptions } from './claims/require-idp-token'
export type { SetupCheck, SetupFinding, SetupProblem } from './setup-check'
export { createIdentityProvider } from './create-identity-provider'
export type {
  IdentityProvider,
  IdentityProviderOptions,
  IdpAccount,
  IdpDiscovery,
  SignInContext,
  SignInGrant,
} from './identity-provider'
export { createAssertionSigner, MAX_ASSERTION_LIFETIME_SECONDS } from './assertion/exchange-assertion'
export type {
  AssertionAlgorithm,
  AssertionKey,
  AssertionSigner,
  ExchangeAssertionOptions,
} from './assertion/exchange-assertion'
export {
  TOKEN_EXCHANGE_SUBJECT_TOKEN_TYPE,
  TOKEN_EXCHANGE_USER_ID_CLAIM,
} from './tenant/tenant-token-exchange'
export { TOKEN_EXCHANGE_CHECK_SCOPES } from './tenant/tenant-token-exchange-checks'
export { IDENTITY_PROVIDER_SETTINGS, readIdentityProviderSettings } from './read-identity-provider-settings'
export type {
  IdentityProviderSettings,
  IdentityProviderSettingsRead,
  IdpStyle,
} from './identity-provider-settings'
export type { SecretSetting } from './secret-setting'
export type { Environment } from './lib/settings-reader'
export type { RealmSettings } from './realm/realm-settings'
export type { TenantSettings } from './tenant/tenant-settings'
export { requiredManagementScopes } from './tenant/tenant-setup-checks'
export { parseAssertionKey } from './assertion/parse-assertion-key'
export type { PublishedAssertionKey } from './assertion/parse-assertion-key'
export { ASSERTION_IAT_BACKDATE_SEC, createExchangeAssertions } from './assertion/create-exchange-assertions'
export type { ExchangeAssertions, ExchangeAssertionsOptions } from './assertion/create-exchange-assertions'
export { PASSWORD_MARK } from './password-mark'
export type { MarkedPasswordsRemoved } from './realm/create-realm-jwt-bearer'
export { JWT_BEARER_MIN_VERSION } from './realm/realm-jwt-bearer-checks'
