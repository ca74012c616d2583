import type { Migration } from '../../postgres/apply-migrations'

/**
 * The re-screening part of the watches schema (versions 30-39, after `WATCH_MIGRATIONS`):
 * - `watch_list_changes`: one row per list change (`change_key`: the replicas that see the same refresh record
 *   it once), with the parties it touched before and after (`touched`, `TouchedParties`), so any replica can
 *   re-screen it whatever lists it holds; changes are re-screened in `change_id` order, one replica at a time
 *   (`RESCREEN_LOCK`, a session advisory lock: a killed replica's is released with its connection).
 * - `watch_list_change_subjects`: the subjects a change was applied to, written in the transaction that
 *   replaces their hits, so a replica taking over skips them: no change is applied twice to one subject.
 * - `watch_list_heads`: per list, the version (`sha256`) the recorded changes have brought the hits to, and
 *   `watch_list_versions` every version that was a head: a refresh is recorded only from the head
 *   (`recordListRefresh`), so replicas refreshing at different times never apply a change twice or backwards.
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
  {
    version: 31,
    name: 'the version each list change was recorded up to',
    sql: `
      CREATE TABLE watch_list_heads (
        list text PRIMARY KEY,
        version text NOT NULL,
        generation bigint NOT NULL DEFAULT 1,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE watch_list_versions (
        list text NOT NULL,
        version text NOT NULL,
        first_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (list, version)
      );
    `,
  },
]

/** The session advisory lock a replica holds while it re-screens list changes (not the migrations' key). */
export const RESCREEN_LOCK = 7_240_041
