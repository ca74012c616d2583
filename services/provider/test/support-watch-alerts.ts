import { randomUUID } from 'node:crypto'
import type { Pool } from 'pg'
import { createLogger } from '@pf/service-kit'
import { createAlertDeliverer, type AlertDelivererOptions } from '../src/watches/alerts'
import type { AlertBatchPayload } from '../src/watches/alerts'
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
