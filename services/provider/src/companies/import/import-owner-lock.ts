import type { ClientBase } from 'pg'

/**
 * The advisory-lock class of import tables (`pg_advisory_lock(int4, int4)`: a key space apart from the
 * migrations' one-key lock). An import holds the lock of its id on its own session from before it creates
 * `companies_import_<id>` until it ends, so the server releases it however the import ends (a crash, a kill):
 * a table whose lock is free has no owner left.
 */
const IMPORT_OWNER_CLASS = 7_240_025

/** The lock's second key: the import id within int4 (ids come from a sequence; they would wrap past 2^31). */
const ownerKey = (importId: string) => Number(BigInt(importId) % 2_147_483_648n)

/** Takes the lock of `importId` on the client's session, for as long as the session lasts or `releaseImport`. */
export async function ownImport(client: ClientBase, importId: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1, $2)', [IMPORT_OWNER_CLASS, ownerKey(importId)])
}

export async function releaseImport(client: ClientBase, importId: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1, $2)', [IMPORT_OWNER_CLASS, ownerKey(importId)])
}

/**
 * Runs `work` holding the lock of an import whose table looks abandoned, when no other session holds it (its
 * owner is gone); returns false without running it when one does (an import still loading). A session's
 * advisory locks are re-entrant: the caller must not be that import's own session.
 */
export async function whenOwnerGone(
  client: ClientBase,
  importId: string,
  work: () => Promise<void>,
): Promise<boolean> {
  const { rows } = await client.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS free', [
    IMPORT_OWNER_CLASS,
    ownerKey(importId),
  ])
  if (!rows[0]?.free) return false
  try {
    await work()
    return true
  } finally {
    await releaseImport(client, importId)
  }
}
