import type { Migration } from '../../postgres/apply-migrations'

/**
 * Alert delivery's part of the watches schema (versions 20-29, additive only).
 * - `retry_since`: when the batch's retry horizon started (its forming, or its re-queueing after `failed`), so a
 *   re-queued batch gets a whole horizon again while `created_at` keeps saying when it was formed.
 * - The due batches and each watch's unsent batches are found by index, however many sent batches pile up.
 */
export const ALERT_MIGRATIONS: readonly Migration[] = [
  {
    version: 20,
    name: 'alert delivery: retry horizon start, indexes of due and unsent batches',
    sql: `
      ALTER TABLE watch_alert_batches ADD COLUMN retry_since timestamptz NOT NULL DEFAULT now();
      CREATE INDEX watch_alert_batches_due ON watch_alert_batches (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX watch_alert_batches_unsent ON watch_alert_batches (watch_id, sequence) WHERE status <> 'sent';
    `,
  },
]
