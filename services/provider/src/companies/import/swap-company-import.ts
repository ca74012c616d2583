import type { ClientBase } from 'pg'

/**
 * Makes a loaded import the one its source's searches read, in one transaction: the table becomes a partition
 * of `companies` (SHARE UPDATE EXCLUSIVE on the parent: searches and delivery cursors, which hold ACCESS
 * SHARE, neither block it nor wait for it; the table's CHECK on `import_id` spares the validation scan, and its
 * indexes, built alike, are attached instead of rebuilt), then the source's pointer moves to it. Searches read
 * the pointer in their own statement, so they see this import whole, or the previous one.
 */
export async function swapCompanyImport(
  client: ClientBase,
  { table, importId, source, records, rejected }: SwapOptions,
): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query(`ALTER TABLE companies ATTACH PARTITION ${table} FOR VALUES IN (${importId})`)
    await client.query(
      `INSERT INTO company_sources (source, import_id, records, rejected) VALUES ($1, $2, $3, $4)
       ON CONFLICT (source) DO UPDATE SET import_id = EXCLUDED.import_id, records = EXCLUDED.records,
         rejected = EXCLUDED.rejected, imported_at = now()`,
      [source, importId, records, rejected],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
}

export interface SwapOptions {
  table: string
  importId: string
  source: string
  records: number
  rejected: number
}

/**
 * Removes the partitions no source points to any more (the imports a swap replaced), without ever making a
 * search wait: `DETACH PARTITION ... CONCURRENTLY` takes only SHARE UPDATE EXCLUSIVE on the parent and waits
 * for the queries that may still read the partition (a delivery cursor), then the detached table is dropped.
 * `lock_timeout` bounds that wait: a partition still read is left (its detach pending, which searches already
 * skip) and finished by the next import (`FINALIZE`). Returns the tables dropped and those left.
 */
export async function dropReplacedImports(
  client: ClientBase,
  lockTimeoutMs: number,
): Promise<{ dropped: string[]; left: string[] }> {
  await client.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`)
  try {
    return await dropEach(client, await replacedTables(client))
  } finally {
    await client.query('RESET lock_timeout')
  }
}

/** Replaced imports are marked before their detach, so one detached but not yet dropped is found again. */
const REPLACED = 'pf: replaced import'

/** The partitions no source points to, and the tables detached earlier whose drop had to wait. */
async function replacedTables(client: ClientBase) {
  const { rows } = await client.query<{ table: string; attached: boolean; pending: boolean }>(
    `SELECT c.relname AS table, i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS pending
       FROM pg_class c LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'companies'::regclass
      WHERE c.relkind = 'r' AND c.relname ~ '^companies_import_\\d+$'
        AND ((i.inhrelid IS NOT NULL AND substring(c.relname from '\\d+$')::bigint
              NOT IN (SELECT import_id FROM company_sources))
          OR (i.inhrelid IS NULL AND obj_description(c.oid, 'pg_class') = $1))`,
    [REPLACED],
  )
  return rows
}

async function dropEach(
  client: ClientBase,
  tables: { table: string; attached: boolean; pending: boolean }[],
): Promise<{ dropped: string[]; left: string[] }> {
  const dropped: string[] = []
  const left: string[] = []
  for (const { table, attached, pending } of tables) {
    try {
      if (attached) {
        await client.query(`COMMENT ON TABLE ${table} IS '${REPLACED}'`)
        // Not in a transaction block: DETACH ... CONCURRENTLY refuses to run in one.
        await client.query(
          `ALTER TABLE companies DETACH PARTITION ${table} ${pending ? 'FINALIZE' : 'CONCURRENTLY'}`,
        )
      }
      await client.query(`DROP TABLE ${table}`)
      dropped.push(table)
    } catch {
      left.push(table)
    }
  }
  return { dropped, left }
}
