import { IdpAccountConflictError, IdpMisconfiguredError } from '../errors'
import { PASSWORD_MARK } from '../password-mark'
import type { ExchangeAssertions } from '../assertion/create-exchange-assertions'
import type { IdpHttp } from '../lib/http-client'
import type { IdpTokens, MarketplaceUser, SyncedUser } from '../marketplace-user'
import { FORM, form } from './form'
import type { RealmAdminApi, RealmAdminCall } from './realm-admin-api'
import type { KeycloakUser } from './realm-types'

/** RFC 7523 section 2.1. */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

interface Link {
  identityProvider: string
  userId: string
  userName?: string
}

export interface RealmJwtBearerOptions {
  realmPath: string
  adminPath: string
  clientId: string
  clientSecret: string
  assertions: ExchangeAssertions
  providerAlias: string
}

/** What the removal of marked passwords did (`removeMarkedPasswords`). */
export interface MarkedPasswordsRemoved {
  /** Accounts whose mark was found. */
  accounts: number
  /** Password credentials removed. */
  passwords: number
}

/**
 * Keycloak's JWT Authorization Grant (26.5.3 or later, feature `jwt-authorization-grant`) for the exchange:
 * - `grant`: the token request with the exchange's assertion (`sub` = the marketplace `userId`, `aud` = the realm's
 *   issuer as its discovery document says it: the public host name, which Keycloak compares with its own, not the
 *   address the exchange reaches it at; JWTAuthorizationGrantIdentityProvider.getAllowedAudienceForJWTGrant).
 *   The answer has no refresh token (JWTAuthorizationGrantType.useRefreshToken() is false; the session is
 *   transient);
 * - `link`: the account's link to the provider, `userId` the marketplace `userId` exactly (Keycloak finds the user
 *   by it: getUserByFederatedIdentity); a link of that provider to another user id is a conflict;
 * - `removeMarkedPasswords`: a password the exchange set (`PASSWORD_MARK`) is removed with its mark;
 * - `revoke`: RFC 7009 for an access token (TokenRevocationEndpoint puts its id in the revoked store).
 */
export function createRealmJwtBearer(
  request: IdpHttp,
  call: RealmAdminCall,
  api: Pick<RealmAdminApi, 'getUser' | 'updateUser' | 'findUsers'>,
  options: RealmJwtBearerOptions,
) {
  const { realmPath, adminPath, clientId, clientSecret, assertions, providerAlias } = options
  const userPath = (id: string) => `${adminPath}/users/${encodeURIComponent(id)}`
  let audience: Promise<string> | undefined

  /** The realm's issuer from its discovery document, read once (again after a failure). */
  const realmIssuer = () => {
    audience ??= request<{ issuer?: unknown }>({
      what: 'discovery',
      method: 'GET',
      url: `${realmPath}/.well-known/openid-configuration`,
    }).then(({ data }) => {
      if (typeof data.issuer !== 'string' || !data.issuer)
        throw new IdpMisconfiguredError('the realm discovery document names no issuer')
      return data.issuer
    })
    audience.catch(() => (audience = undefined))
    return audience
  }

  async function removeMarked(user: KeycloakUser): Promise<number> {
    const { data: credentials } = await call<{ id: string; type: string }[]>('credentials', {
      method: 'GET',
      url: `${userPath(user.id)}/credentials`,
    })
    const passwords = credentials.filter((c) => c.type === 'password')
    for (const { id } of passwords)
      await call('remove credential', {
        method: 'DELETE',
        url: `${userPath(user.id)}/credentials/${encodeURIComponent(id)}`,
      })
    // The mark goes last: a failure before leaves it, so the next exchange or the bulk command finishes.
    const current = await api.getUser(user.id)
    const { [PASSWORD_MARK.name]: _mark, ...rest } = current.attributes ?? {}
    await api.updateUser({ ...current, attributes: rest })
    return passwords.length
  }

  const isMarked = (user: KeycloakUser) => user.attributes?.[PASSWORD_MARK.name]?.[0] === PASSWORD_MARK.value

  return {
    realmIssuer,

    async grant(user: MarketplaceUser): Promise<IdpTokens> {
      const assertion = assertions.sign({ sub: user.userId, aud: await realmIssuer() })
      const { data } = await request<IdpTokens>({
        what: 'jwt-bearer grant',
        method: 'POST',
        url: `${realmPath}/protocol/openid-connect/token`,
        headers: FORM,
        data: form({
          grant_type: JWT_BEARER_GRANT_TYPE,
          assertion,
          client_id: clientId,
          client_secret: clientSecret,
          scope: 'openid',
        }),
      })
      return data
    },

    /** After a sync: a marked password gone, and the link to the provider made (or found, already ours). */
    async link(synced: SyncedUser, user: MarketplaceUser): Promise<void> {
      let links: Link[] = []
      // A new account has neither a mark nor links: one call, the link.
      if (!synced.created) {
        const stored = await api.getUser(synced.id)
        if (isMarked(stored)) await removeMarked(stored)
        const url = `${userPath(synced.id)}/federated-identity`
        links = (await call<Link[]>('identity-provider links', { method: 'GET', url })).data
      }
      const ours = links.find((l) => l.identityProvider === providerAlias)
      if (ours?.userId === user.userId) return
      if (ours)
        throw new IdpAccountConflictError(
          `the account is linked at identity provider "${providerAlias}" to another marketplace user`,
        )
      await call('link identity provider', {
        method: 'POST',
        url: `${userPath(synced.id)}/federated-identity/${encodeURIComponent(providerAlias)}`,
        data: { identityProvider: providerAlias, userId: user.userId, userName: user.userId },
      })
    },

    /** Every account with a marked password, found by the attribute search, 100 a page. */
    async removeMarkedPasswords(): Promise<MarkedPasswordsRemoved> {
      const done: MarkedPasswordsRemoved = { accounts: 0, passwords: 0 }
      const q = `${PASSWORD_MARK.name}:${PASSWORD_MARK.value}`
      for (;;) {
        // Each removal drops the mark, so the first page is asked again until it comes back empty.
        const { data: page } = await call<KeycloakUser[]>('find marked users', {
          method: 'GET',
          url: `${adminPath}/users`,
          params: { q, exact: 'true', briefRepresentation: 'false', first: '0', max: '100' },
        })
        const marked = page.filter(isMarked)
        if (marked.length === 0) return done
        for (const user of marked) {
          done.passwords += await removeMarked(user)
          done.accounts += 1
        }
      }
    },

    async revoke(accessToken: string): Promise<void> {
      await request({
        what: 'revoke',
        method: 'POST',
        url: `${realmPath}/protocol/openid-connect/revoke`,
        headers: FORM,
        data: form({
          client_id: clientId,
          client_secret: clientSecret,
          token: accessToken,
          token_type_hint: 'access_token',
        }),
      })
    },
  }
}

export type RealmJwtBearer = ReturnType<typeof createRealmJwtBearer>
