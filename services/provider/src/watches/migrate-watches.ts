import type { Pool } from 'pg'
import { applyMigrations, type Migration } from '../postgres/apply-migrations'
import { WATCH_MIGRATIONS } from './watch-migrations'

/** The advisory lock key of the watches schema (not the companies schema's: they migrate independently). */
const MIGRATION_LOCK = 7_240_040

/** Applies the watches schema's pending migrations (`applyMigrations`). Returns the versions applied. */
export function migrateWatches(
  pool: Pool,
  migrations: readonly Migration[] = WATCH_MIGRATIONS,
): Promise<number[]> {
  return applyMigrations(pool, { table: 'watch_schema_migrations', lockKey: MIGRATION_LOCK, migrations })
}
