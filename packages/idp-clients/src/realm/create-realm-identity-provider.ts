import { normalizeRealmClaims } from '../claims/normalize-claims'
import { decodeJwtPayload } from '../decode-jwt-payload'
import { deriveRealmPassword } from '../derive-password'
import { IdpRejectedError } from '../errors'
import type { IdentityProvider, IdentityProviderOptions } from '../identity-provider'
import type { MarketplaceUser } from '../marketplace-user'
import type { SetupCheck, SetupProblem } from '../setup-check'
import { createRealmClient } from './create-realm-client'
import type { RealmSettings } from './realm-settings'

/**
 * Whether only administrators may write the marketplace attributes, which the lookups by `pfUserId` trust (the
 * doctor's line of the same name); a profile the admin identity may not read is said, not fatal.
 */
async function attributeProblems({ name, run }: SetupCheck): Promise<SetupProblem[]> {
  try {
    const finding = await run()
    return finding.ok ? [] : [{ check: name, problem: finding.problem, fix: finding.fix }]
  } catch (error) {
    if (!(error instanceof IdpRejectedError)) throw error
    const problem = `not checked: the user profile could not be read (${error.message})`
    return [{ check: name, problem, fix: 'run the doctor with an admin of the realm' }]
  }
}

/**
 * The realm style (Keycloak 24-26, spec C1) as an `IdentityProvider`: every sign-in with the user's derived
 * password (`deriveRealmPassword`); at start, the version (24 or newer) and who may write the attributes.
 */
export function createRealmIdentityProvider(
  settings: RealmSettings,
  options: IdentityProviderOptions = {},
): IdentityProvider {
  const client = createRealmClient({ ...settings, ...options })
  const password = (user: MarketplaceUser) => deriveRealmPassword(user.userId, settings.clientSecret)
  return {
    style: 'realm',
    discovery: {
      url: `${client.issuer}/.well-known/openid-configuration`,
      issuer: client.issuer,
      jwksUri: client.jwksUri,
    },
    syncUser: (user) => client.syncUser(user, password(user)),
    signIn: (synced, user) => client.signIn(synced, password(user)),
    grant: (account, user) => client.passwordGrant(account.username, password(user)),
    revoke: (refreshToken) => client.logout(refreshToken),
    endUserSessions: (input) => client.endUserSessions(input),
    checkAtStart: async () => {
      await client.version()
      return attributeProblems(client.attributesCheck())
    },
    setupChecks: () => client.setupChecks(),
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? normalizeRealmClaims(payload) : null
    },
    ping: () => client.ping(),
  }
}
