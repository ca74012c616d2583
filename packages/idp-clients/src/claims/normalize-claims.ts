import { MARKETPLACE_ATTRIBUTES, type MarketplaceAttribute } from '../marketplace-attributes'

/** The identity provider's access-token claims, the same shape for both styles (spec, "access-token claims"). */
export interface NormalizedClaims {
  subject: string | null
  username: string | null
  email: string | null
  /** Missing roles read as an empty list. */
  roles: string[]
  orgId: string | null
  pfUserId: string | null
  pfApplicationId: string | null
  /** `sid`, or `session_state` on servers that still send it. */
  sessionId: string | null
}

type Claims = Record<string, unknown>

const text = (value: unknown) => (typeof value === 'string' ? value : null)
const list = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
/** The marketplace attributes among the claims, each under its own name behind `prefix` (a namespace). */
const marketplaceClaims = (claims: Claims, prefix = '') =>
  Object.fromEntries(
    MARKETPLACE_ATTRIBUTES.map((name) => [name, text(claims[`${prefix}${name}`])]),
  ) as Record<MarketplaceAttribute, string | null>

/**
 * Claims of a realm-style (Keycloak) access token: `realm_access.roles`, `preferred_username`, and the mapped
 * `pfUserId`, `orgId`, `pfApplicationId`. The session id is `sid`, or `session_state` where the server still
 * sends that (it left the tokens in version 25; the spec places the change in 26: both are read).
 */
export function normalizeRealmClaims(claims: Claims): NormalizedClaims {
  return {
    subject: text(claims.sub),
    username: text(claims.preferred_username),
    email: text(claims.email),
    roles: list((claims.realm_access as Claims | undefined)?.roles),
    ...marketplaceClaims(claims),
    sessionId: text(claims.sid) ?? text(claims.session_state),
  }
}

/**
 * Claims of a tenant-style (Auth0) access token, whose custom claims carry a URL-form namespace ending with `/`
 * (without one the tenant silently drops them). Throws `TypeError` for a namespace that is not of that form.
 *
 * @example
 * normalizeTenantClaims(payload, 'https://pf.example.com/')
 */
export function normalizeTenantClaims(claims: Claims, namespace: string): NormalizedClaims {
  if (!/^https?:\/\/.+\/$/.test(namespace)) {
    throw new TypeError(
      `[@pf/idp-clients] claim namespace must be a URL ending with "/" (got "${namespace}")`,
    )
  }
  return {
    subject: text(claims.sub),
    username: text(claims.nickname),
    email: text(claims.email) ?? text(claims[`${namespace}email`]),
    roles: list(claims[`${namespace}roles`]),
    ...marketplaceClaims(claims, namespace),
    sessionId: text(claims.sid),
  }
}
