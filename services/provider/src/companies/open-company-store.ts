import type { Logger } from '@pf/service-kit'
import type { CompaniesDatabaseConfig } from '../config'
import type { CompanyStore } from './company-store'
import { PostgresCompanyStore } from './postgres/postgres-company-store'

/**
 * The PostgreSQL company store when `COMPANIES_DATABASE_URL` is set (connected, migrations applied), else
 * undefined: the provider then indexes the datasets' companies in memory. A database that cannot be reached
 * at start stops the start, as a list that cannot be read does: serving would answer every search with a 500.
 */
export async function openCompanyStore(
  database: CompaniesDatabaseConfig | undefined,
  logger: Logger,
): Promise<CompanyStore | undefined> {
  if (!database) return undefined
  const store = await PostgresCompanyStore.open({ ...database, logger })
  logger.info(
    { companies: 'postgres', replica: Boolean(database.readUrl), pool: database.poolSize },
    'companies database connected, schema migrated',
  )
  return store
}
