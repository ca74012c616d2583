import { PASSWORD_MARK } from '../password-mark'
import type { TenantManagementApi } from './tenant-management-api'

/**
 * Replaces the password the exchange had set (marked) with `password`, random and kept by no one (a database
 * user cannot be without one), then drops the mark: a password first, so a failure between leaves it marked and
 * the next sync or bulk run does it again.
 */
export async function unmarkTenantPassword(
  api: TenantManagementApi,
  userId: string,
  connection: string,
  password: string,
): Promise<void> {
  await api.patchUser(userId, { password, connection })
  await api.patchUser(userId, { app_metadata: { [PASSWORD_MARK.name]: null } })
}
