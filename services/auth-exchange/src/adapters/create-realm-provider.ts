import {
  createRealmClient,
  decodeJwtPayload,
  deriveRealmPassword,
  normalizeRealmClaims,
} from '@pf/idp-clients'
import type { RealmSettings } from '../config'
import type { IdentityProvider } from '../core/identity-provider'

/** The realm style (Keycloak 24-26, spec C1) behind the exchange's interface. */
export function createRealmProvider(settings: RealmSettings, timeoutMs: number): IdentityProvider {
  const client = createRealmClient({ ...settings, timeoutMs })
  const password = (userId: string) => deriveRealmPassword(userId, settings.clientSecret)
  return {
    style: 'realm',
    syncUser: (user) => client.syncUser(user, password(user.userId)),
    signIn: (username, user) => client.passwordGrant(username, password(user.userId)),
    logout: (refreshToken) => client.logout(refreshToken),
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeRealmClaims(payload) : null
    },
    ping: () => client.ping(),
  }
}
