import { normalizeTenantClaims } from '../claims/normalize-claims'
import { decodeJwtPayload } from '../decode-jwt-payload'
import { deriveTenantPassword } from '../derive-password'
import type { IdentityProvider, IdentityProviderOptions, SignInContext } from '../identity-provider'
import type { MarketplaceUser } from '../marketplace-user'
import { createTenantClient } from './create-tenant-client'
import { randomTenantPassword } from './random-tenant-password'
import type { TenantSettings } from './tenant-settings'

/**
 * The tenant style (Auth0, spec C2) as an `IdentityProvider`: every sign-in with the user's derived password
 * (`deriveTenantPassword`), or with `signInGrant: { type: 'token-exchange' }` through Custom Token Exchange (the
 * user synced with a random password nobody keeps, since a database user needs one; the exchange's assertion
 * verified by the tenant's Action); the caller's IP sent as `auth0-forwarded-for` with `forwardedFor`
 * (`TENANT_FORWARDED_FOR`); nothing to check at start.
 */
export function createTenantIdentityProvider(
  settings: TenantSettings,
  options: IdentityProviderOptions = {},
): IdentityProvider {
  const client = createTenantClient({ ...settings, ...options })
  const password = (user: MarketplaceUser) => deriveTenantPassword(user.userId, settings.clientSecret)
  const forwarded = (context: SignInContext = {}) =>
    settings.forwardedFor && context.ip ? { forwardedFor: context.ip } : {}
  const exchange = client.tokenExchange
  const signIns: Pick<IdentityProvider, 'syncUser' | 'signIn' | 'grant' | 'removeMarkedPasswords'> = exchange
    ? {
        syncUser: (user) => client.syncUser(user, randomTenantPassword(), { passwordless: true }),
        removeMarkedPasswords: () => client.removeMarkedPasswords(),
        signIn: (synced, user, context) => exchange.signIn(synced.id, user, forwarded(context)),
        grant: (account, user, context) => exchange.grant(account.id, user, forwarded(context)),
      }
    : {
        syncUser: (user) => client.syncUser(user, password(user)),
        signIn: (synced, user, context) => client.signIn(synced, password(user), forwarded(context)),
        grant: (account, user, context) =>
          client.passwordGrant(account.username, password(user), forwarded(context)),
      }
  return {
    style: 'tenant',
    discovery: {
      url: `${settings.baseUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      issuer: client.issuer,
      jwksUri: client.jwksUri,
    },
    ...signIns,
    revoke: (refreshToken) => client.logout(refreshToken),
    endUserSessions: (input) => client.endUserSessions(input),
    checkAtStart: async () => [],
    setupChecks: () => client.setupChecks(),
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeTenantClaims(payload, settings.claimNamespace) : null
    },
    ping: () => client.ping(),
  }
}
