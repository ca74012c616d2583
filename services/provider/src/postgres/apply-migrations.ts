import type { Pool, PoolClient } from 'pg'

/** One schema change, applied once, in `version` order; never edited once released (add a new one). */
export interface Migration {
  version: number
  name: string
  sql: string
}

/** One schema's migrations: its own bookkeeping table and advisory lock, so schemas never wait on each other. */
export interface MigrationSet {
  /** The table that records the applied versions (`company_schema_migrations`, `watch_schema_migrations`). */
  table: string
  /** The advisory lock key (any constant; the same in every replica and command). */
  lockKey: number
  migrations: readonly Migration[]
}

/**
 * Applies the migrations not applied yet, each in a transaction, under a session advisory lock: replicas (and
 * commands) starting together take turns, and the later ones find the work done. Returns the versions applied.
 */
export async function applyMigrations(pool: Pool, set: MigrationSet): Promise<number[]> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [set.lockKey])
    try {
      return await applyPending(client, set)
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [set.lockKey])
    }
  } finally {
    client.release()
  }
}

async function applyPending(client: PoolClient, set: MigrationSet): Promise<number[]> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${set.table} (
       version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  )
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${set.table}`)
  const done = new Set(rows.map((row) => row.version))
  const applied: number[] = []
  for (const migration of [...set.migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue
    await client.query('BEGIN')
    try {
      await client.query(migration.sql)
      await client.query(`INSERT INTO ${set.table} (version, name) VALUES ($1, $2)`, [
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
