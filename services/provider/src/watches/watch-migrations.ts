import type { Migration } from '../postgres/apply-migrations'
import { ALERT_MIGRATIONS } from './alerts/alert-migrations'
import { RESCREEN_MIGRATIONS } from './rescreen/rescreen-migrations'

/**
 * The watches schema (issue 40). Version ranges, so that work on its parts can add migrations side by side:
 * 1-19 watches, subjects, hits and decisions; 20-29 alert delivery; 30-39 re-screening on list changes.
 * - A subject is screened while `screened_revision` is behind `revision` (bumped by every upsert that changes
 *   what decides a match), so the screening backlog is a count, and a crash mid-screening leaves it to redo.
 * - `watch_hits` are the hits each subject has now, one per party (`hit_key`: the party's first `list:entryId`,
 *   as screening groups the lists one party is on), with `entry_hash` over the fields that decide a match.
 * - `watch_decisions` keep their history: the newest for a subject and `list:entryId` is in force, and a
 *   `false_positive` only while the party's `entry_hash` is the one it was decided on.
 * - `watch_alerts` are generated in the transaction that changes `watch_hits`, so each is generated once; they
 *   wait unbatched (`batch_id` null) until delivery groups them into `watch_alert_batches`, whose `sequence` is
 *   per watch and gapless (`watches.next_sequence`), sent in order.
 */
export const WATCH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'watches, subjects, hits, decisions, alerts and alert batches',
    sql: `
      CREATE TABLE watches (
        watch_id text PRIMARY KEY,
        alert_url text NOT NULL,
        alert_token text NOT NULL,
        threshold integer,
        lists text[],
        entity_type text,
        next_sequence bigint NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE watch_subjects (
        watch_id text NOT NULL REFERENCES watches ON DELETE CASCADE,
        subject_id text NOT NULL,
        name text NOT NULL,
        country text,
        birth_year integer,
        entity_type text,
        revision bigint NOT NULL DEFAULT 1,
        screened_revision bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (watch_id, subject_id)
      );
      CREATE INDEX watch_subjects_unscreened ON watch_subjects (watch_id)
        WHERE screened_revision IS DISTINCT FROM revision;
      CREATE TABLE watch_hits (
        watch_id text NOT NULL,
        subject_id text NOT NULL,
        hit_key text NOT NULL,
        entry_hash text NOT NULL,
        score integer NOT NULL,
        hit jsonb NOT NULL,
        PRIMARY KEY (watch_id, subject_id, hit_key),
        FOREIGN KEY (watch_id, subject_id) REFERENCES watch_subjects ON DELETE CASCADE
      );
      CREATE TABLE watch_decisions (
        decision_id bigserial PRIMARY KEY,
        watch_id text NOT NULL,
        subject_id text NOT NULL,
        list text NOT NULL,
        entry_id text NOT NULL,
        decision text NOT NULL CHECK (decision IN ('false_positive', 'match')),
        entry_hash text,
        note text,
        decided_by text,
        decided_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (watch_id, subject_id) REFERENCES watch_subjects ON DELETE CASCADE
      );
      CREATE INDEX watch_decisions_by_entry ON watch_decisions (watch_id, subject_id, list, entry_id, decision_id);
      CREATE TABLE watch_alert_batches (
        batch_id uuid PRIMARY KEY,
        watch_id text NOT NULL REFERENCES watches ON DELETE CASCADE,
        sequence bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        UNIQUE (watch_id, sequence)
      );
      CREATE TABLE watch_alerts (
        alert_id uuid PRIMARY KEY,
        watch_id text NOT NULL REFERENCES watches ON DELETE CASCADE,
        subject_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('new', 'changed', 'removed')),
        hit jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        ordinal bigserial NOT NULL,
        batch_id uuid REFERENCES watch_alert_batches ON DELETE CASCADE
      );
      CREATE INDEX watch_alerts_unbatched ON watch_alerts (watch_id, ordinal) WHERE batch_id IS NULL;
      CREATE INDEX watch_alerts_by_batch ON watch_alerts (batch_id);
    `,
  },
  ...ALERT_MIGRATIONS,
  ...RESCREEN_MIGRATIONS,
]
