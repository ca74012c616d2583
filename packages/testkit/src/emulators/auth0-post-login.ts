import { loadActionHandler } from './auth0-actions'
import type { Auth0TenantState, EmulatedAuth0User } from './auth0-tenant-state'

/** A post-login Action of the tenant's Login flow, run from its source file. */
export interface EmulatedPostLoginAction {
  file: string
  secrets?: Record<string, string>
}

/** What the post-login pipeline decided: the custom claims of each token, or a denial. */
export type PostLoginOutcome =
  | { kind: 'claims'; access: Record<string, unknown>; id: Record<string, unknown> }
  | { kind: 'denied'; reason: string }

/** The claims the exchange's post-login Action writes, for a tenant whose Login flow runs no file of ours. */
function defaultClaims(state: Auth0TenantState, user: EmulatedAuth0User): PostLoginOutcome {
  const { namespace } = state
  return {
    kind: 'claims',
    access: {
      [`${namespace}roles`]: state.roleNames(user),
      [`${namespace}orgId`]: user.app_metadata.orgId,
      [`${namespace}pfUserId`]: user.app_metadata.pfUserId,
      [`${namespace}pfApplicationId`]: user.app_metadata.pfApplicationId,
    },
    id: {},
  }
}

/**
 * The Login flow after a user is known (post-login-event-object.mdx, post-login-api-object.mdx): with
 * `postLoginAction`, its `onExecutePostLogin(event, api)` runs with `event.user` (as the Management API shows it),
 * `event.authorization.roles`, `event.client`, `event.secrets` and `event.transaction.protocol`
 * (`oauth2-password`, `oauth2-refresh-token`, `oauth2-token-exchange`: "the `event.transaction.protocol` is set to
 * `oauth2-token-exchange`" after a Custom Token Exchange, explore-triggers/custom-token-exchange.mdx), and
 * `api.accessToken.setCustomClaim`, `api.idToken.setCustomClaim`, `api.access.deny(reason)`; a thrown error
 * denies. Without one, the claims the repository's post-login Action writes (`defaultClaims`).
 */
export async function runPostLogin(
  state: Auth0TenantState,
  user: EmulatedAuth0User,
  { clientId, protocol }: { clientId: string; protocol: string },
): Promise<PostLoginOutcome> {
  const action = state.postLoginAction
  if (!action) return defaultClaims(state, user)
  const access: Record<string, unknown> = {}
  const id: Record<string, unknown> = {}
  let denied: string | undefined
  const event = {
    user: state.view(user),
    authorization: { roles: state.roleNames(user) },
    client: { client_id: clientId, name: clientId, metadata: {} },
    connection: { name: user.connection, strategy: 'auth0' },
    secrets: { ...action.secrets },
    transaction: { protocol },
  }
  const api = {
    access: { deny: (reason: string) => void (denied ??= reason) },
    accessToken: { setCustomClaim: (key: string, value: unknown) => void (access[key] = value) },
    idToken: { setCustomClaim: (key: string, value: unknown) => void (id[key] = value) },
    multifactor: { enable: () => {} },
  }
  try {
    await loadActionHandler(action.file, 'onExecutePostLogin')(event, api)
  } catch (error) {
    return { kind: 'denied', reason: (error as Error).message }
  }
  return denied === undefined ? { kind: 'claims', access, id } : { kind: 'denied', reason: denied }
}
