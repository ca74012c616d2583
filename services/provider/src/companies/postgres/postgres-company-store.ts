import { Pool, type PoolClient } from 'pg'
import Cursor from 'pg-cursor'
import type { Logger } from '@pf/service-kit'
import type { Company } from '../../datasets/records'
import type { CompaniesQuery, CompaniesStreamQuery, CompanyStore } from '../company-store'
import { companySearchSql } from './company-search-sql'
import { WordStatisticsCache } from './company-word-statistics'
import { migrateCompanies } from './migrate-companies'

export interface PostgresCompanyStoreOptions {
  /** `COMPANIES_DATABASE_URL`: the primary (migrations, and searches unless `readUrl`). */
  url: string
  /** `COMPANIES_DATABASE_READ_URL`: a replica for searches and deliveries. */
  readUrl?: string
  /** `COMPANIES_DATABASE_POOL`: connections per pool. */
  poolSize: number
  /** `COMPANIES_DATABASE_TIMEOUT_MS`: longest a statement (or one cursor read, or a connect) may take. */
  timeoutMs: number
  logger: Logger
}

/** Rows read per round trip when streaming a delivery. */
const CURSOR_BATCH = 1000

/**
 * The `CompanyStore` in PostgreSQL (rows loaded by `import-companies`): searches and deliveries on the read pool,
 * readiness on both. A database that is down or slow makes searches reject (the query flow turns that into the
 * spec's failed callback and a 500) and `/ready` fail; the pools open new connections when it returns.
 */
export class PostgresCompanyStore implements CompanyStore {
  readonly kind = 'postgres'
  /** The current imports' word statistics, whose estimates choose each search's plan (`costedPlan`). */
  private readonly statistics: WordStatisticsCache

  private constructor(
    private readonly primary: Pool,
    private readonly replica: Pool,
  ) {
    this.statistics = new WordStatisticsCache(replica)
  }

  /** Connects and applies the pending migrations (`migrateCompanies`, under an advisory lock). */
  static async open(options: PostgresCompanyStoreOptions): Promise<PostgresCompanyStore> {
    const primary = createPool(options.url, options)
    const replica = options.readUrl ? createPool(options.readUrl, options) : primary
    try {
      await migrateCompanies(primary)
    } catch (error) {
      await Promise.all([primary.end(), replica === primary ? undefined : replica.end()])
      throw error
    }
    return new PostgresCompanyStore(primary, replica)
  }

  async search(query: CompaniesQuery): Promise<Company[]> {
    const sql = companySearchSql(query, query.limit, await this.statistics.get())
    if (!sql) return []
    const { rows } = await this.replica.query<Company>(sql)
    return rows
  }

  /**
   * A cursor (`pg-cursor`: a portal read `CURSOR_BATCH` rows per Execute) on a connection of its own, held
   * until the stream ends or is abandoned. The statement time-out applies to each read, not to the whole
   * stream: in the extended protocol it "is canceled by completion of an Execute or Sync message" (PostgreSQL
   * docs, `statement_timeout`), so a long delivery is bounded by the caller's `signal`, not by it.
   */
  async *stream(query: CompaniesStreamQuery, { signal }: { signal?: AbortSignal } = {}) {
    const sql = companySearchSql(query, query.limit, await this.statistics.get())
    if (!sql) return
    const client = await this.replica.connect()
    const cursor = client.query(new Cursor<Company>(sql.text, sql.values))
    let failed: unknown
    try {
      for (;;) {
        signal?.throwIfAborted()
        const rows = await cursor.read(CURSOR_BATCH)
        if (rows.length === 0) return
        yield* rows
      }
    } catch (error) {
      failed = error
      throw error
    } finally {
      await closeCursor(cursor, client, failed)
    }
  }

  async ready(): Promise<void> {
    await Promise.all([this.primary.query('SELECT 1'), this.replica.query('SELECT 1')])
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.end(), this.replica === this.primary ? undefined : this.replica.end()])
  }
}

/** Closes a cursor and gives its connection back; a connection whose read failed is destroyed, not reused. */
async function closeCursor(cursor: Cursor, client: PoolClient, failed: unknown): Promise<void> {
  if (failed) return client.release(failed instanceof Error ? failed : new Error(String(failed)))
  try {
    await cursor.close()
    client.release()
  } catch (error) {
    client.release(error as Error)
  }
}

function createPool(url: string, { poolSize, timeoutMs, logger }: PostgresCompanyStoreOptions): Pool {
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    // Sent as a start-up parameter: the server ends any statement that runs longer.
    statement_timeout: timeoutMs,
    // An idle connection is only ever a hazard to the server; a few seconds keeps bursts warm.
    idleTimeoutMillis: 10_000,
    application_name: 'pf-provider',
  })
  // An idle connection's error (the server restarting, a network cut) is emitted on the pool; without a
  // listener it would crash the process (node-postgres docs, "Pool: events, error"). The pool drops it.
  pool.on('error', (error) =>
    logger.warn({ err: { message: error.message } }, 'companies database connection lost'),
  )
  return pool
}
