import type { Pool, PoolClient } from 'pg'
import { COMPANY_MIGRATIONS, type Migration } from './company-migrations'

/** The advisory lock key of the companies schema (any constant; the same in every replica and import). */
const MIGRATION_LOCK = 7_240_024

/**
 * Applies the migrations not applied yet, each in a transaction, under a session advisory lock: replicas (and
 * an import) starting together take turns, and the later ones find the work done. Returns the versions applied.
 */
export async function migrateCompanies(
  pool: Pool,
  migrations: readonly Migration[] = COMPANY_MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      return await applyPending(client, migrations)
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    client.release()
  }
}

async function applyPending(client: PoolClient, migrations: readonly Migration[]): Promise<number[]> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS company_schema_migrations (
       version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  )
  const { rows } = await client.query<{ version: number }>('SELECT version FROM company_schema_migrations')
  const done = new Set(rows.map((row) => row.version))
  const applied: number[] = []
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue
    await client.query('BEGIN')
    try {
      await client.query(migration.sql)
      await client.query('INSERT INTO company_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ])
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK')
      throw error
    }
    applied.push(migration.version)
  }
  return applied
}
