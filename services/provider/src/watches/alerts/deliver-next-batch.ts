import type { Pool, PoolClient } from 'pg'
import type { Logger } from '@pf/service-kit'
import type { AlertRetryPolicy } from './alert-delivery-settings'
import { serializeAlertBatch, type DeliveredAlert } from './alert-batch-payload'
import { postAlertBatch, type AlertPostOptions, type AlertPostOutcome } from './post-alert-batch'
import { retryDelayMs } from './retry-delay'

export interface DeliverNextOptions {
  post: AlertPostOptions
  retry: AlertRetryPolicy
  logger: Logger
  random?: () => number
  /** Told of each attempt's outcome (metrics). */
  onOutcome?(outcome: 'sent' | 'retry' | 'failed'): void
}

interface ClaimedBatch {
  batch_id: string
  watch_id: string
  sequence: string
  attempts: number
  alert_url: string
  alert_token: string
}

/**
 * Claims one due batch and makes one attempt to send it. The claim is a row lock (`SKIP LOCKED`) held in a
 * transaction for the whole attempt, so one replica sends a batch at a time; a replica that dies mid-send
 * loses its connection, the lock goes with it, and another replica sends the batch again (same `batchId`:
 * at least once). Only a watch's lowest unsent batch is ever claimed. Resolves false when nothing was due.
 */
export async function deliverNextBatch(pool: Pool, options: DeliverNextOptions): Promise<boolean> {
  const client = await pool.connect()
  let broken: Error | undefined
  // A session ended under a checked-out client (a database restart mid-send) is an 'error' event, which
  // would end the process unheard: the next query rejects with it instead, and the attempt is rolled back.
  const onError = (error: Error) => (broken = error)
  client.on('error', onError)
  try {
    await client.query('BEGIN')
    // A replica frozen mid-send (not dead) must not hold the batch for ever: the server ends its session.
    const idleMs = options.post.timeoutMs * 2 + 5000
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${idleMs}`)
    const claimed = await claim(client)
    if (!claimed) {
      await client.query('COMMIT')
      return false
    }
    const outcome = await send(client, claimed, options.post)
    await record(client, claimed, outcome, options)
    await client.query('COMMIT')
    return true
  } catch (error) {
    broken = error as Error
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    // A connection whose session the server ended (or that failed mid-transaction) is not reused.
    client.off('error', onError)
    client.release(broken)
  }
}

async function claim(client: PoolClient): Promise<ClaimedBatch | undefined> {
  const { rows } = await client.query<ClaimedBatch>(
    `SELECT b.batch_id, b.watch_id, b.sequence, b.attempts, w.alert_url, w.alert_token
       FROM watch_alert_batches b JOIN watches w USING (watch_id)
      WHERE b.status = 'pending' AND b.next_attempt_at <= now()
        AND NOT EXISTS (SELECT 1 FROM watch_alert_batches e
                         WHERE e.watch_id = b.watch_id AND e.status <> 'sent' AND e.sequence < b.sequence)
      ORDER BY b.next_attempt_at
      LIMIT 1
      FOR NO KEY UPDATE OF b SKIP LOCKED`,
  )
  return rows[0]
}

async function send(
  client: PoolClient,
  batch: ClaimedBatch,
  post: AlertPostOptions,
): Promise<AlertPostOutcome> {
  const { rows } = await client.query<DeliveredAlert>(
    `SELECT alert_id AS "alertId", subject_id AS "subjectId", kind, hit
       FROM watch_alerts WHERE batch_id = $1 ORDER BY ordinal`,
    [batch.batch_id],
  )
  const body = serializeAlertBatch({
    watchId: batch.watch_id,
    batchId: batch.batch_id,
    sequence: Number(batch.sequence),
    sentAt: new Date().toISOString(),
    alerts: rows,
  })
  return postAlertBatch({ alertUrl: batch.alert_url, alertToken: batch.alert_token }, body, post)
}

async function record(
  client: PoolClient,
  batch: ClaimedBatch,
  outcome: AlertPostOutcome,
  { retry, logger, random, onOutcome }: DeliverNextOptions,
): Promise<void> {
  const fields = { watchId: batch.watch_id, batchId: batch.batch_id, sequence: Number(batch.sequence) }
  const attempts = batch.attempts + 1
  if (outcome.ok) {
    await client.query(
      `UPDATE watch_alert_batches SET status = 'sent', sent_at = now(), attempts = $2, last_error = NULL
        WHERE batch_id = $1`,
      [batch.batch_id, attempts],
    )
    logger.info({ ...fields, attempts, status: outcome.status }, 'alert batch delivered')
    onOutcome?.('sent')
    return
  }
  const delayMs = retryDelayMs(attempts, retry, random)
  // Failed once the next attempt would fall past the horizon (or the horizon has passed already).
  const { rows } = await client.query<{ status: string }>(
    `UPDATE watch_alert_batches
        SET attempts = $2, last_error = $3,
            status = CASE WHEN retry_since + $4 * interval '1 millisecond' < now() + $5 * interval '1 millisecond'
                          THEN 'failed' ELSE 'pending' END,
            next_attempt_at = now() + $5 * interval '1 millisecond'
      WHERE batch_id = $1 RETURNING status`,
    [batch.batch_id, attempts, outcome.error, retry.horizonMs, delayMs],
  )
  const failed = rows[0]?.status === 'failed'
  const log = { ...fields, attempts, error: outcome.error, detail: outcome.detail }
  if (failed) logger.error(log, 'alert batch failed: past the retry horizon, the watch waits for a re-queue')
  else logger.warn({ ...log, retryInMs: delayMs }, 'alert batch not delivered, retried later')
  onOutcome?.(failed ? 'failed' : 'retry')
}
