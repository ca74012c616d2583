import type { ClientBase } from 'pg'
import { whenOwnerGone } from './import-owner-lock'

/**
 * Removes the import tables no search reads and no import is still loading, without ever making a search
 * wait:
 * - the partitions no source points to any more (the imports a swap replaced): `DETACH PARTITION ...
 *   CONCURRENTLY` takes only SHARE UPDATE EXCLUSIVE on the parent and waits for the queries that may still
 *   read the partition (a delivery cursor), then the detached table is dropped;
 * - the tables never attached whose import is gone (crashed, killed, its connection lost): those whose owner's
 *   advisory lock is free (`whenOwnerGone`); a concurrent import, of any source, holds its own and is left be.
 * `lock_timeout` bounds each wait: a table still read is left (a detach pending, which searches already skip)
 * and finished by the next import (`FINALIZE`). Returns the tables dropped and those left.
 */
export async function dropUnusedImports(
  client: ClientBase,
  lockTimeoutMs: number,
): Promise<{ dropped: string[]; left: string[] }> {
  await client.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`)
  try {
    return await dropEach(client, await unusedTables(client))
  } finally {
    await client.query('RESET lock_timeout')
  }
}

/** Replaced imports are marked before their detach, so one detached but not yet dropped is found again. */
const REPLACED = 'pf: replaced import'

interface UnusedTable {
  table: string
  importId: string
  attached: boolean
  pending: boolean
  replaced: boolean
}

/** The import tables no source points to: attached (replaced), detached earlier, or never attached. */
async function unusedTables(client: ClientBase): Promise<UnusedTable[]> {
  const { rows } = await client.query<UnusedTable>(
    `SELECT c.relname AS table, substring(c.relname from '\\d+$') AS "importId",
            i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS pending,
            obj_description(c.oid, 'pg_class') IS NOT DISTINCT FROM $1 AS replaced
       FROM pg_class c LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'companies'::regclass
      WHERE c.relkind = 'r' AND c.relname ~ '^companies_import_\\d+$'
        AND substring(c.relname from '\\d+$')::bigint NOT IN (SELECT import_id FROM company_sources)
      ORDER BY c.relname`,
    [REPLACED],
  )
  return rows
}

async function dropEach(
  client: ClientBase,
  tables: readonly UnusedTable[],
): Promise<{ dropped: string[]; left: string[] }> {
  const dropped: string[] = []
  const left: string[] = []
  for (const { table, importId, attached, pending, replaced } of tables) {
    try {
      if (attached) {
        await client.query(`COMMENT ON TABLE ${table} IS '${REPLACED}'`)
        // Not in a transaction block: DETACH ... CONCURRENTLY refuses to run in one.
        await client.query(
          `ALTER TABLE companies DETACH PARTITION ${table} ${pending ? 'FINALIZE' : 'CONCURRENTLY'}`,
        )
      }
      const drop = () => client.query(`DROP TABLE ${table}`).then(() => undefined)
      if (attached || replaced) await drop()
      else if (!(await whenOwnerGone(client, importId, drop))) continue
      dropped.push(table)
    } catch {
      left.push(table)
    }
  }
  return { dropped, left }
}
