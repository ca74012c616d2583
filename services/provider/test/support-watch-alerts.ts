import { randomUUID } from 'node:crypto'
import { Client, type Pool } from 'pg'
import { createLogger } from '@pf/service-kit'
import { createAlertDeliverer, type AlertDelivererOptions } from '../src/watches/alerts'
import type { AlertBatchPayload } from '../src/watches/alerts'
import { eventually } from './support-eventually'
import type { RecordedRequest } from './support-http'

export const silentLogger = createLogger({ name: 'test', level: 'silent' })

/** A watch row as the watch API writes it. */
export async function insertWatch(
  pool: Pool,
  watchId: string,
  alertUrl: string,
  alertToken = `token-${watchId}`,
) {
  await pool.query('INSERT INTO watches (watch_id, alert_url, alert_token) VALUES ($1, $2, $3)', [
    watchId,
    alertUrl,
    alertToken,
  ])
}

/** `count` alerts for a watch, as screening generates them (unbatched, in `ordinal` order); their ids. */
export async function insertAlerts(
  pool: Pool,
  watchId: string,
  count: number,
  kind = 'new',
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID())
  for (const [i, id] of ids.entries())
    await pool.query(
      'INSERT INTO watch_alerts (alert_id, watch_id, subject_id, kind, hit) VALUES ($1, $2, $3, $4, $5)',
      [id, watchId, `s-${i}`, kind, JSON.stringify({ list: 'un', entryId: String(i), score: 90 })],
    )
  return ids
}

/** The batches of a watch, in sequence order. */
export async function batchesOf(pool: Pool, watchId: string) {
  const { rows } = await pool.query<{
    batch_id: string
    sequence: string
    status: string
    attempts: number
    last_error: string | null
  }>(
    'SELECT batch_id, sequence, status, attempts, last_error FROM watch_alert_batches WHERE watch_id = $1 ORDER BY sequence',
    [watchId],
  )
  return rows
}

export const payloadOf = (request: RecordedRequest) =>
  JSON.parse(request.body.toString('utf8')) as AlertBatchPayload

/** A deliverer polling often, with tiny retry delays, that may call the local receiver. */
export function testDeliverer(pool: Pool, options: Partial<AlertDelivererOptions> = {}) {
  return createAlertDeliverer({
    pool,
    logger: silentLogger,
    outbound: { allowPrivate: true, timeoutMs: 5000 },
    ...options,
    settings: {
      pollMs: 10,
      batchSize: 2,
      concurrency: 2,
      ...options.settings,
      retry: { baseMs: 1, maxDelayMs: 4, horizonMs: 3_600_000, ...options.settings?.retry },
    },
  })
}

/**
 * Ends a pool and waits until the server has seen its sessions go: `pool.end()` resolves as its clients start
 * closing, and a server stopped in that moment sends them a FATAL that no one would hear (an 'error' event).
 * The last pool of a test file: it waits for every session, those of pools ended before it too.
 */
export async function endPool(pool: Pool, url: string): Promise<void> {
  await pool.end()
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    await eventually(async () => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      )
      return rows[0]?.n === 0
    })
  } finally {
    await client.end()
  }
}
