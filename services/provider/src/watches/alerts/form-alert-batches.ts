import { randomUUID } from 'node:crypto'
import type { Pool, PoolClient } from 'pg'

/** Watches looked at per pass: the rest wait for the next pass. */
const WATCHES_PER_PASS = 100

/**
 * Groups waiting alerts into batches, at most `batchSize` each, in `ordinal` order, for the watches that have
 * none unsent: a watch has at most one batch `pending` or `failed` at a time, so its batches are sent in
 * `sequence` order and a `failed` one holds back the rest (they wait unbatched, listed as pending). Each batch
 * takes the watch's `next_sequence` in the transaction that fills it, so sequences have no gaps. Returns how
 * many batches were formed.
 */
export async function formAlertBatches(pool: Pool, { batchSize }: { batchSize: number }): Promise<number> {
  const { rows } = await pool.query<{ watch_id: string }>(
    `SELECT DISTINCT a.watch_id FROM watch_alerts a
      WHERE a.batch_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM watch_alert_batches b WHERE b.watch_id = a.watch_id AND b.status <> 'sent')
      LIMIT $1`,
    [WATCHES_PER_PASS],
  )
  let formed = 0
  for (const { watch_id: watchId } of rows) if (await formBatch(pool, watchId, batchSize)) formed++
  return formed
}

async function formBatch(pool: Pool, watchId: string, batchSize: number): Promise<boolean> {
  const client = await pool.connect()
  // A session ended between two statements is an 'error' event on the client: the next statement rejects.
  let broken: Error | undefined
  const onError = (error: Error) => (broken = error)
  client.on('error', onError)
  try {
    await client.query('BEGIN')
    const formed = await formInTransaction(client, watchId, batchSize)
    await client.query(formed ? 'COMMIT' : 'ROLLBACK')
    return formed
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.off('error', onError)
    client.release(broken)
  }
}

async function formInTransaction(client: PoolClient, watchId: string, batchSize: number): Promise<boolean> {
  // NO KEY UPDATE: alerts being inserted for this watch (their foreign key's KEY SHARE) do not wait on it, but
  // another replica forming a batch for the watch does, and skips it.
  const watch = await client.query<{ next_sequence: string }>(
    'SELECT next_sequence FROM watches WHERE watch_id = $1 FOR NO KEY UPDATE SKIP LOCKED',
    [watchId],
  )
  const sequence = watch.rows[0]?.next_sequence
  if (sequence === undefined) return false
  const unsent = await client.query(
    `SELECT 1 FROM watch_alert_batches WHERE watch_id = $1 AND status <> 'sent' LIMIT 1`,
    [watchId],
  )
  if (unsent.rowCount) return false
  const batchId = randomUUID()
  await client.query('INSERT INTO watch_alert_batches (batch_id, watch_id, sequence) VALUES ($1, $2, $3)', [
    batchId,
    watchId,
    sequence,
  ])
  const filled = await client.query(
    `UPDATE watch_alerts SET batch_id = $1 WHERE alert_id IN (
       SELECT alert_id FROM watch_alerts WHERE watch_id = $2 AND batch_id IS NULL ORDER BY ordinal LIMIT $3
       FOR UPDATE)`,
    [batchId, watchId, batchSize],
  )
  if (!filled.rowCount) return false
  await client.query('UPDATE watches SET next_sequence = next_sequence + 1 WHERE watch_id = $1', [watchId])
  return true
}
