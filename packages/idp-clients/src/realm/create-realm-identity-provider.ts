import { normalizeRealmClaims } from '../claims/normalize-claims'
import { decodeJwtPayload } from '../decode-jwt-payload'
import { deriveRealmPassword } from '../derive-password'
import { IdpRejectedError } from '../errors'
import type { IdentityProvider, IdentityProviderOptions } from '../identity-provider'
import type { MarketplaceUser } from '../marketplace-user'
import type { SetupCheck, SetupProblem } from '../setup-check'
import { createRealmClient, type RealmClient } from './create-realm-client'
import type { RealmJwtBearer } from './create-realm-jwt-bearer'
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

/** How the realm style signs a user in: the spec's password grant, or the JWT Authorization Grant. */
type SignInWay = Pick<
  IdentityProvider,
  'syncUser' | 'signIn' | 'grant' | 'revoke' | 'endUserSessions' | 'logoutToken' | 'removeMarkedPasswords'
>

/** `password`: every sign-in with the user's derived password (`deriveRealmPassword`). */
function passwordWay(client: RealmClient, settings: RealmSettings): SignInWay {
  const password = (user: MarketplaceUser) => deriveRealmPassword(user.userId, settings.clientSecret)
  return {
    syncUser: (user) => client.syncUser(user, password(user)),
    signIn: (synced, user) => client.signIn(synced, password(user)),
    grant: (account, user) => client.passwordGrant(account.username, password(user)),
    revoke: (refreshToken) => client.logout(refreshToken),
    endUserSessions: (input) => client.endUserSessions(input),
  }
}

/**
 * `jwt-bearer` (Keycloak 26.5.3+): no password is set or sent; the sync links the account to the provider and
 * removes a password the exchange had set; every sign-in is the JWT Authorization Grant (one round trip). Its
 * sessions are transient and its answers carry no refresh token: logging out revokes the access token, and there
 * are no sessions to end.
 */
function jwtBearerWay(client: RealmClient, jwtBearer: RealmJwtBearer): SignInWay {
  return {
    async syncUser(user) {
      const synced = await client.syncUser(user, undefined)
      await jwtBearer.link(synced, user)
      return synced
    },
    signIn: (_synced, user) => jwtBearer.grant(user),
    grant: (_account, user) => jwtBearer.grant(user),
    logoutToken: 'access_token',
    revoke: (accessToken) => jwtBearer.revoke(accessToken),
    endUserSessions: async () => ({
      outcome: 'nothing-to-end',
      reason:
        'EXCHANGE_GRANT=jwt-bearer: Keycloak keeps no session for the JWT Authorization Grant (transient)',
    }),
    removeMarkedPasswords: () => jwtBearer.removeMarkedPasswords(),
  }
}

/**
 * The realm style (Keycloak 24-26, spec C1) as an `IdentityProvider`: signing in as `options.grant` says
 * (`passwordWay`, `jwtBearerWay`); at start, the version (24 or newer; 26.5.3 and the feature for `jwt-bearer`)
 * and who may write the attributes.
 */
export function createRealmIdentityProvider(
  settings: RealmSettings,
  options: IdentityProviderOptions = {},
): IdentityProvider {
  const { signInGrant: grant = { type: 'password' }, ...rest } = options
  const jwtBearer =
    grant.type === 'jwt-bearer'
      ? { assertions: grant.assertions, providerAlias: grant.providerAlias }
      : undefined
  const client = createRealmClient({ ...settings, ...rest, jwtBearer })
  return {
    style: 'realm',
    discovery: {
      url: `${client.issuer}/.well-known/openid-configuration`,
      issuer: client.issuer,
      jwksUri: client.jwksUri,
    },
    ...(client.jwtBearer ? jwtBearerWay(client, client.jwtBearer) : passwordWay(client, settings)),
    checkAtStart: async () => {
      await client.version()
      await client.checkJwtBearerAtStart()
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
