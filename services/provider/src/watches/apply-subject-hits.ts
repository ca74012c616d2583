import { randomUUID } from 'node:crypto'
import type { ClientBase } from 'pg'
import type { WatchHit } from './screen-subject'
import {
  alertHit,
  silencingOf,
  subjectAlerts,
  type AlertKind,
  type FalsePositive,
  type StoredHit,
} from './subject-alerts'

export type { AlertKind } from './subject-alerts'

/** How many alerts of each kind one replacement wrote. */
export type AlertCounts = Record<AlertKind, number>

/**
 * Replaces one subject's `watch_hits` with `hits` and writes the difference as `watch_alerts`, in the caller's
 * transaction (so the alerts are generated once, with the change): `new` for a hit only now, `removed` for one
 * only before, `changed` for the same `hit_key` with another `entry_hash`. A `false_positive` decision in force
 * on one of the party's `list:entryId` silences it while the party's `entry_hash` is the one it was decided on;
 * once the hash changes, it alerts again as `changed`. The caller holds the subject's row (`FOR UPDATE`).
 */
export async function applySubjectHits(
  client: ClientBase,
  watchId: string,
  subjectId: string,
  hits: readonly WatchHit[],
): Promise<AlertCounts> {
  const before = await client.query<StoredHit>(
    'SELECT hit_key, entry_hash, hit FROM watch_hits WHERE watch_id = $1 AND subject_id = $2',
    [watchId, subjectId],
  )
  const alerts = subjectAlerts(before.rows, await falsePositives(client, watchId, subjectId), hits)
  await client.query('DELETE FROM watch_hits WHERE watch_id = $1 AND subject_id = $2', [watchId, subjectId])
  if (hits.length > 0)
    await client.query(
      `INSERT INTO watch_hits (watch_id, subject_id, hit_key, entry_hash, score, hit)
       SELECT $1, $2, h.hit_key, h.entry_hash, h.score, h.hit
       FROM jsonb_to_recordset($3::jsonb) AS h(hit_key text, entry_hash text, score integer, hit jsonb)`,
      [
        watchId,
        subjectId,
        JSON.stringify(
          hits.map((h) => ({ hit_key: h.hitKey, entry_hash: h.entryHash, score: h.score, hit: alertHit(h) })),
        ),
      ],
    )
  if (alerts.length > 0)
    await client.query(
      `INSERT INTO watch_alerts (alert_id, watch_id, subject_id, kind, hit)
       SELECT a.alert_id, $1, $2, a.kind, a.hit
       FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (alert_id uuid, kind text, hit jsonb))
         WITH ORDINALITY AS a(alert_id, kind, hit, n)
       ORDER BY n`,
      [watchId, subjectId, JSON.stringify(alerts.map((alert) => ({ alert_id: randomUUID(), ...alert })))],
    )
  const counts: AlertCounts = { new: 0, changed: 0, removed: 0 }
  for (const alert of alerts) counts[alert.kind] += 1
  return counts
}

/** The entry hashes a `false_positive` in force silences, by `list:entryId` (the newest decision is in force). */
async function falsePositives(client: ClientBase, watchId: string, subjectId: string) {
  const { rows } = await client.query<FalsePositive>(
    `SELECT list, entry_id, entry_hash FROM (
       SELECT DISTINCT ON (list, entry_id) list, entry_id, decision, entry_hash FROM watch_decisions
       WHERE watch_id = $1 AND subject_id = $2 ORDER BY list, entry_id, decision_id DESC) newest
     WHERE decision = 'false_positive' AND entry_hash IS NOT NULL`,
    [watchId, subjectId],
  )
  return silencingOf(rows)
}
