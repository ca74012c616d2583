import type { Pool } from 'pg'

/**
 * Puts a watch's `failed` batch back in the queue, to be tried at once with a whole retry horizon again (after
 * the receiver was fixed, or the watch's `alertUrl` changed); the alerts waiting behind it follow once it is
 * acknowledged. `last_error` stays until the next attempt. Returns the batches re-queued (0 or 1).
 */
export async function requeueFailedBatches(pool: Pool, watchId: string): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE watch_alert_batches SET status = 'pending', attempts = 0, next_attempt_at = now(), retry_since = now()
      WHERE watch_id = $1 AND status = 'failed'`,
    [watchId],
  )
  return rowCount ?? 0
}
