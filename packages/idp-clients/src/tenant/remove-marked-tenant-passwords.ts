import type { MarkedPasswordsRemoved } from '../realm/create-realm-jwt-bearer'
import { PASSWORD_MARK } from '../password-mark'
import { inConnection } from './find-linked-tenant-user'
import { exactTerm } from './lucene'
import { randomTenantPassword } from './random-tenant-password'
import type { TenantManagementApi } from './tenant-management-api'
import { unmarkTenantPassword } from './unmark-tenant-password'

/**
 * Every account of `connection` whose password the exchange set (`PASSWORD_MARK` in `app_metadata`) gets a random
 * password nobody keeps and loses the mark: a database user cannot be without one (issue 39, token-exchange).
 * The user search is a hint (it lags behind writes: a mark just removed may still be found, one just set not
 * yet), each account confirmed by `GET /users/{id}`; it asks again until the search names no account it has
 * not seen, so a run right after many writes can leave some for the next run.
 */
export async function removeMarkedTenantPasswords(
  api: TenantManagementApi,
  connection: string,
): Promise<MarkedPasswordsRemoved> {
  const done: MarkedPasswordsRemoved = { accounts: 0, passwords: 0 }
  const seen = new Set<string>()
  for (;;) {
    const hints = await api.searchUsers(exactTerm(`app_metadata.${PASSWORD_MARK.name}`, PASSWORD_MARK.value))
    const fresh = hints.filter((hint) => !seen.has(hint.user_id))
    if (fresh.length === 0) return done
    for (const hint of fresh) {
      seen.add(hint.user_id)
      const account = await api.getUser(hint.user_id)
      if (!account || !inConnection(account, connection)) continue
      if (account.app_metadata?.[PASSWORD_MARK.name] !== PASSWORD_MARK.value) continue
      await unmarkTenantPassword(api, account.user_id, connection, randomTenantPassword())
      done.accounts += 1
      done.passwords += 1
    }
  }
}
