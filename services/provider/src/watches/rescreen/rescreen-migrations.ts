import type { Migration } from '../../postgres/apply-migrations'

/**
 * The re-screening part of the watches schema (versions 30-39, after `WATCH_MIGRATIONS`):
 * - `watch_list_changes`: one row per list change (`change_key`: the replicas that see the same refresh record
 *   it once), with the parties it touched before and after (`touched`, `TouchedParties`), so any replica can
 *   re-screen it whatever lists it holds; changes are re-screened in `change_id` order, one replica at a time
 *   (`RESCREEN_LOCK`, a session advisory lock: a killed replica's is released with its connection).
 * - `watch_list_change_subjects`: the subjects a change was applied to, written in the transaction that
 *   replaces their hits, so a replica taking over skips them: no change is applied twice to one subject.
 */
export const RESCREEN_MIGRATIONS: readonly Migration[] = [
  {
    version: 30,
    name: 'list changes to re-screen, and the subjects each was applied to',
    sql: `
      CREATE TABLE watch_list_changes (
        change_id bigserial PRIMARY KEY,
        change_key text NOT NULL UNIQUE,
        touched jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
        created_at timestamptz NOT NULL DEFAULT now(),
        done_at timestamptz
      );
      CREATE INDEX watch_list_changes_pending ON watch_list_changes (change_id) WHERE status = 'pending';
      CREATE TABLE watch_list_change_subjects (
        change_id bigint NOT NULL REFERENCES watch_list_changes ON DELETE CASCADE,
        watch_id text NOT NULL,
        subject_id text NOT NULL,
        PRIMARY KEY (change_id, watch_id, subject_id)
      );
    `,
  },
]

/** The session advisory lock a replica holds while it re-screens list changes (not the migrations' key). */
export const RESCREEN_LOCK = 7_240_041
