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
