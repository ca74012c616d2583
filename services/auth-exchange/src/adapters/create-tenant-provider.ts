import {
  createTenantClient,
  decodeJwtPayload,
  deriveTenantPassword,
  normalizeTenantClaims,
} from '@pf/idp-clients'
import type { TenantSettings } from '../config'
import type { IdentityProvider } from '../core/identity-provider'

/** The tenant style (Auth0, spec C2) behind the exchange's interface. */
export function createTenantProvider(settings: TenantSettings, timeoutMs: number): IdentityProvider {
  const client = createTenantClient({ ...settings, timeoutMs })
  const password = (userId: string) => deriveTenantPassword(userId, settings.clientSecret)
  return {
    style: 'tenant',
    syncUser: (user) => client.syncUser(user, password(user.userId)),
    signIn: (username, user) => client.passwordGrant(username, password(user.userId)),
    logout: (refreshToken) => client.logout(refreshToken),
    // Without TENANT_AUDIENCE the access token is opaque: no claims to read.
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeTenantClaims(payload, settings.claimNamespace) : null
    },
    ping: () => client.ping(),
  }
}
