import {
  IdpRejectedError,
  createRealmClient,
  createTenantClient,
  decodeJwtPayload,
  deriveRealmPassword,
  deriveTenantPassword,
  normalizeRealmClaims,
  normalizeTenantClaims,
  type AccountAdoption,
  type IdpTokens,
  type MarketplaceUser,
  type NormalizedClaims,
  type RealmClient,
  type SyncedUser,
} from '@pf/idp-clients'
import type { ExchangeConfig, RealmSettings, TenantSettings } from '../config'
import type { CallerContext, IdentityProvider, SetupProblem } from '../core/identity-provider'

interface ClientOptions {
  timeoutMs: number
  adoption: AccountAdoption
}

/** What differs between the styles; everything else is the same wiring (`identityProviderOf`). */
interface Style {
  style: IdentityProvider['style']
  check(): Promise<SetupProblem[]>
  /** The user's derived password (spec, "Derived passwords"): each style has its own. */
  password(userId: string): string
  client: {
    syncUser(user: MarketplaceUser, password: string): Promise<SyncedUser>
    logout(refreshToken: string): Promise<void>
    ping(): Promise<void>
  }
  signIn(synced: SyncedUser, password: string, caller: CallerContext): Promise<IdpTokens>
  grant(username: string, password: string, caller: CallerContext): Promise<IdpTokens>
  claims(payload: Record<string, unknown>): NormalizedClaims
}

/**
 * Whether only administrators may write the marketplace attributes, which the lookups by `pfUserId` trust (the
 * doctor's line of the same name); a profile the admin identity may not read is said, not fatal.
 */
async function attributeProblems(client: RealmClient): Promise<SetupProblem[]> {
  const { name, run } = client.attributesCheck()
  try {
    const finding = await run()
    return finding.ok ? [] : [{ check: name, problem: finding.problem, fix: finding.fix }]
  } catch (error) {
    if (!(error instanceof IdpRejectedError)) throw error
    const problem = `not checked: the user profile could not be read (${error.message})`
    return [{ check: name, problem, fix: 'run the doctor with an admin of the realm' }]
  }
}

/** The realm style (Keycloak 24-26, spec C1): the version and who may write the attributes checked at start. */
function realmStyle(settings: RealmSettings, options: ClientOptions): Style {
  const client = createRealmClient({ ...settings, ...options })
  return {
    style: 'realm',
    check: async () => {
      await client.version()
      return attributeProblems(client)
    },
    password: (userId) => deriveRealmPassword(userId, settings.clientSecret),
    client,
    signIn: (synced, password) => client.signIn(synced, password),
    grant: (username, password) => client.passwordGrant(username, password),
    claims: normalizeRealmClaims,
  }
}

/** The tenant style (Auth0, spec C2): the caller's IP goes to the grant with `TENANT_FORWARDED_FOR`. */
function tenantStyle(settings: TenantSettings, options: ClientOptions): Style {
  const client = createTenantClient({ ...settings, ...options })
  const forwarded = (caller: CallerContext) =>
    settings.forwardedFor && caller.ip ? { forwardedFor: caller.ip } : {}
  return {
    style: 'tenant',
    check: async () => [],
    password: (userId) => deriveTenantPassword(userId, settings.clientSecret),
    client,
    signIn: (synced, password, caller) => client.signIn(synced, password, forwarded(caller)),
    grant: (username, password, caller) => client.passwordGrant(username, password, forwarded(caller)),
    claims: (payload) => normalizeTenantClaims(payload, settings.claimNamespace),
  }
}

/** The exchange's interface over one style: every call with the user's derived password. */
function identityProviderOf({
  style,
  check,
  password,
  client,
  signIn,
  grant,
  claims,
}: Style): IdentityProvider {
  return {
    style,
    check,
    syncUser: (user) => client.syncUser(user, password(user.userId)),
    signIn: (synced, user, caller) => signIn(synced, password(user.userId), caller),
    grant: (username, user, caller) => grant(username, password(user.userId), caller),
    logout: (refreshToken) => client.logout(refreshToken),
    // An opaque access token (Auth0 without TENANT_AUDIENCE) has no claims to read.
    claimsOf: (token) => {
      const payload = decodeJwtPayload(token)
      return payload ? claims(payload) : null
    },
    ping: () => client.ping(),
  }
}

/** The configured identity provider (`IDP_STYLE`) behind the exchange's interface. */
export function createIdentityProvider(idp: ExchangeConfig['idp'], options: ClientOptions): IdentityProvider {
  return identityProviderOf(
    idp.style === 'realm' ? realmStyle(idp.realm, options) : tenantStyle(idp.tenant, options),
  )
}
