import {
  createRealmClient,
  decodeJwtPayload,
  deriveRealmPassword,
  normalizeRealmClaims,
  type AccountAdoption,
} from '@pf/idp-clients'
import type { RealmSettings } from '../config'
import type { IdentityProvider } from '../core/identity-provider'

/** The realm style (Keycloak 24-26, spec C1) behind the exchange's interface. */
export function createRealmProvider(
  settings: RealmSettings,
  { timeoutMs, adoption }: { timeoutMs: number; adoption: AccountAdoption },
): IdentityProvider {
  const client = createRealmClient({ ...settings, timeoutMs, adoption })
  const password = (userId: string) => deriveRealmPassword(userId, settings.clientSecret)
  return {
    style: 'realm',
    check: async () => void (await client.version()),
    syncUser: (user) => client.syncUser(user, password(user.userId)),
    signIn: (synced, user) => client.signIn(synced, password(user.userId)),
    grant: (username, user) => client.passwordGrant(username, password(user.userId)),
    logout: (refreshToken) => client.logout(refreshToken),
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeRealmClaims(payload) : null
    },
    ping: () => client.ping(),
  }
}
