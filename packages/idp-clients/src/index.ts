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
export { createTenantClient, DEFAULT_CONNECTION } from './tenant/create-tenant-client'
export type { TenantClient } from './tenant/create-tenant-client'
export type { Auth0User, TenantClientOptions } from './tenant/tenant-types'
export { normalizeRealmClaims, normalizeTenantClaims } from './claims/normalize-claims'
export type { NormalizedClaims } from './claims/normalize-claims'
export type { AsymmetricAlgorithm, JwtClaims } from './claims/jwt-claims'
export { createTokenVerifier } from './claims/create-token-verifier'
export type { TokenVerifier, TokenVerifierOptions } from './claims/create-token-verifier'
export { requireIdpToken } from './claims/require-idp-token'
export type { RequireIdpTokenOptions } from './claims/require-idp-token'
export type { SetupCheck, SetupFinding } from './setup-check'
export { requiredManagementScopes } from './tenant/tenant-setup-checks'
