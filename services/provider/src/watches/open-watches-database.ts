import { Pool } from 'pg'
import type { Logger } from '@pf/service-kit'
import type { WatchesConfig } from '../config'
import { migrateWatches } from './migrate-watches'

/**
 * The watches database when one is set (connected, schema migrated), else undefined: the watch API then answers
 * 501. One that cannot be reached at start stops the start.
 */
export async function openWatchesDatabase(
  config: WatchesConfig | undefined,
  logger: Logger,
): Promise<Pool | undefined> {
  if (!config) return undefined
  const pool = new Pool({
    connectionString: config.url,
    max: config.poolSize,
    connectionTimeoutMillis: 10_000,
  })
  // An idle client's error (the server restarted) must not end the process; the pool reconnects.
  pool.on('error', (error) => logger.warn({ err: error }, 'watches database connection lost'))
  try {
    const applied = await migrateWatches(pool)
    logger.info({ applied, pool: config.poolSize }, 'watches database connected, schema migrated')
    return pool
  } catch (error) {
    await pool.end()
    throw error
  }
}
