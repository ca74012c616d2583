import {
  emailOf,
  IdpInvalidGrantError,
  runWithDeadline,
  type IdentityProvider,
  type IdpTokens,
  type MarketplaceUser,
  type SignInContext,
  type SyncedUser,
} from '@pf/idp-clients'
import type { WarmCache } from './warm-cache'

/** What the flow asks of the identity provider. */
export type ExchangeFlowProvider = Pick<IdentityProvider, 'syncUser' | 'signIn' | 'grant' | 'claimsOf'>

export interface ExchangeResult {
  tokens: IdpTokens
  user: { id: string; pfUserId: string; orgId: string; applicationId: string; email: string; roles: string[] }
  /** `warm`: one provider round trip (the grant); `cold`: the full flow. */
  path: 'warm' | 'cold'
}

/**
 * The exchange flow (spec, C1/C2): sync the provider user, then the password grant. A user known to exist with
 * the same attributes (warm cache) skips the sync; if the grant then says the user or password is gone, the
 * full flow runs. Concurrent first exchanges of one user in this process share one sync; across processes the
 * clients' 409 handling leaves exactly one provider user. Each exchange has one deadline (`deadlineMs`) that
 * every provider call and retry inside it respects. `onAdopted` hears once of each sync that adopted an
 * existing account (concurrent exchanges share one sync).
 */
export function createExchangeFlow(
  idp: ExchangeFlowProvider,
  cache: WarmCache,
  {
    deadlineMs = 8000,
    onAdopted = () => {},
  }: { deadlineMs?: number; onAdopted?: (user: MarketplaceUser, synced: SyncedUser) => void } = {},
) {
  const syncing = new Map<string, Promise<SyncedUser>>()
  const keyOf = (user: MarketplaceUser) =>
    JSON.stringify([
      user.userId,
      user.orgId,
      user.applicationId,
      emailOf(user),
      user.firstName,
      user.lastName,
    ])

  const result = (
    known: { id: string },
    tokens: IdpTokens,
    user: MarketplaceUser,
    path: ExchangeResult['path'],
  ): ExchangeResult => ({
    tokens,
    user: {
      id: known.id,
      pfUserId: user.userId,
      orgId: user.orgId,
      applicationId: user.applicationId,
      email: emailOf(user),
      roles: idp.claimsOf(tokens.access_token)?.roles ?? [],
    },
    path,
  })

  async function run(user: MarketplaceUser, caller: SignInContext): Promise<ExchangeResult> {
    const key = keyOf(user)
    const known = cache.get(key)
    if (known) {
      try {
        return result(known, await idp.grant(known, user, caller), user, 'warm')
      } catch (error) {
        if (!(error instanceof IdpInvalidGrantError)) throw error
        cache.delete(key) // the user or its password changed behind our back: do it all again
      }
    }
    let sync = syncing.get(key)
    if (!sync) {
      sync = idp
        .syncUser(user)
        .then((synced) => {
          if (synced.adopted) onAdopted(user, synced)
          return synced
        })
        .finally(() => syncing.delete(key))
      syncing.set(key, sync)
    }
    const synced = await sync
    const tokens = await idp.signIn(synced, user, caller)
    cache.set(key, { id: synced.id, username: synced.username })
    return result(synced, tokens, user, 'cold')
  }

  return (user: MarketplaceUser, caller: SignInContext = {}): Promise<ExchangeResult> =>
    runWithDeadline(deadlineMs, () => run(user, caller))
}

export type ExchangeFlow = ReturnType<typeof createExchangeFlow>
