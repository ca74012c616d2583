import type { Pool } from 'pg'

export type ListedAlertStatus = 'pending' | 'failed'

/** One alert in `GET /api/watches/{watchId}/alerts`, with the state of the batch that carries it. */
export interface ListedAlert {
  alertId: string
  subjectId: string
  kind: string
  hit: unknown
  createdAt: string
  /** Null while the alert waits unbatched (its watch's earlier batch is unsent, or delivery has not run yet). */
  batchId: string | null
  sequence: number | null
  attempts: number
  nextAttemptAt: string | null
  lastError: string | null
}

export interface AlertPage {
  alerts: ListedAlert[]
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null
}

/**
 * A watch's alerts not yet acknowledged, in the order they are delivered: `pending` (unbatched, or in a batch
 * still being tried) or `failed` (in a batch past its retry horizon). `after` is the last `ordinal` seen.
 * Each half is found by its own index (waiting alerts; unsent batches), however many were delivered.
 */
export async function listWatchAlerts(
  pool: Pool,
  watchId: string,
  { status, limit, after }: { status: ListedAlertStatus; limit: number; after: bigint },
): Promise<AlertPage> {
  const { rows } = await pool.query<ListedAlert & { ordinal: string }>(
    `SELECT a.alert_id AS "alertId", a.subject_id AS "subjectId", a.kind, a.hit, a.created_at AS "createdAt",
            a.ordinal, b.batch_id AS "batchId", b.sequence, coalesce(b.attempts, 0) AS attempts,
            b.next_attempt_at AS "nextAttemptAt", b.last_error AS "lastError"
       FROM (SELECT * FROM watch_alerts
              WHERE $3 = 'pending' AND watch_id = $1 AND batch_id IS NULL AND ordinal > $2
             UNION ALL
             SELECT a.* FROM watch_alert_batches s JOIN watch_alerts a ON a.batch_id = s.batch_id
              WHERE s.watch_id = $1 AND s.status = $3 AND a.ordinal > $2) a
       LEFT JOIN watch_alert_batches b ON b.batch_id = a.batch_id
      ORDER BY a.ordinal
      LIMIT $4`,
    [watchId, after.toString(), status, limit + 1],
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    alerts: page.map(({ ordinal: _ordinal, sequence, createdAt, nextAttemptAt, ...alert }) => ({
      ...alert,
      sequence: sequence === null ? null : Number(sequence),
      createdAt: new Date(createdAt).toISOString(),
      nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString(),
    })),
    nextCursor: rows.length > limit && last ? last.ordinal : null,
  }
}
