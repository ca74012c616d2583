import {
  createTenantClient,
  decodeJwtPayload,
  deriveTenantPassword,
  normalizeTenantClaims,
  type AccountAdoption,
} from '@pf/idp-clients'
import type { TenantSettings } from '../config'
import type { CallerContext, IdentityProvider } from '../core/identity-provider'

/** The tenant style (Auth0, spec C2) behind the exchange's interface. */
export function createTenantProvider(
  settings: TenantSettings,
  { timeoutMs, adoption }: { timeoutMs: number; adoption: AccountAdoption },
): IdentityProvider {
  const client = createTenantClient({ ...settings, timeoutMs, adoption })
  const password = (userId: string) => deriveTenantPassword(userId, settings.clientSecret)
  const forwarded = (caller: CallerContext) =>
    settings.forwardedFor && caller.ip ? { forwardedFor: caller.ip } : {}
  return {
    style: 'tenant',
    check: async () => {},
    syncUser: (user) => client.syncUser(user, password(user.userId)),
    signIn: (synced, user, caller) => client.signIn(synced, password(user.userId), forwarded(caller)),
    grant: (username, user, caller) =>
      client.passwordGrant(username, password(user.userId), forwarded(caller)),
    logout: (refreshToken) => client.logout(refreshToken),
    // Without TENANT_AUDIENCE the access token is opaque: no claims to read.
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeTenantClaims(payload, settings.claimNamespace) : null
    },
    ping: () => client.ping(),
  }
}
