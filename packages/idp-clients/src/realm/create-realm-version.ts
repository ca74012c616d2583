import { IdpMisconfiguredError, IdpRejectedError } from '../errors'
import type { RealmAdminHttp } from './realm-admin-api'
import type { RealmVersion } from './realm-types'

type ServerInfo = { systemInfo?: { version?: string } }

/** The server's major version read from `/admin/serverinfo`; older than 24, or unreadable, is refused. */
async function readVersion(api: RealmAdminHttp): Promise<RealmVersion> {
  const { data } = await api
    .call<ServerInfo>('server info', { method: 'GET', url: '/admin/serverinfo' })
    .catch((error: unknown) => {
      // A service account of the realm may be refused the server's information (403): not a failure of ours.
      if (error instanceof IdpRejectedError && error.statusCode === 403) return { data: {} as ServerInfo }
      throw error
    })
  const text = data.systemInfo?.version
  if (!text) {
    throw new IdpMisconfiguredError(
      'the server does not tell its version to this admin account: set REALM_VERSION (24, 25 or 26)',
    )
  }
  const major = Number.parseInt(text, 10)
  if (Number.isNaN(major) || major < 24)
    throw new IdpMisconfiguredError(`Keycloak ${text} is not supported: 24 or newer is required`)
  return (major >= 26 ? 26 : major) as RealmVersion
}

/**
 * The server's major version: the configured one, or (`auto`) read once from `/admin/serverinfo` and kept;
 * a server that could not be asked is asked again next time.
 */
export function createRealmVersion(
  api: RealmAdminHttp,
  configured: RealmVersion | 'auto',
): () => Promise<RealmVersion> {
  let known: Promise<RealmVersion> | undefined
  return () => {
    known ??= (configured === 'auto' ? readVersion(api) : Promise.resolve(configured)).catch(
      (error: unknown) => {
        known = undefined // unreachable now is no answer: ask again next time
        throw error
      },
    )
    return known
  }
}
