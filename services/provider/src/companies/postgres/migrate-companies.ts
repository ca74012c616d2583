import type { Pool } from 'pg'
import { applyMigrations, type Migration } from '../../postgres/apply-migrations'
import { COMPANY_MIGRATIONS } from './company-migrations'

/** The advisory lock key of the companies schema (any constant; the same in every replica and import). */
const MIGRATION_LOCK = 7_240_024

/** Applies the companies schema's pending migrations (`applyMigrations`). Returns the versions applied. */
export function migrateCompanies(
  pool: Pool,
  migrations: readonly Migration[] = COMPANY_MIGRATIONS,
): Promise<number[]> {
  return applyMigrations(pool, { table: 'company_schema_migrations', lockKey: MIGRATION_LOCK, migrations })
}
