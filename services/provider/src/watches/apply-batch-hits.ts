import { randomUUID } from 'node:crypto'
import type { ClientBase } from 'pg'
import type { AlertCounts } from './apply-subject-hits'
import type { WatchHit } from './screen-subject'
import {
  alertHit,
  silencingOf,
  subjectAlerts,
  type AlertKind,
  type FalsePositive,
  type StoredHit,
} from './subject-alerts'

/** One screened subject of a batch and its hits now. */
export interface ScreenedHits {
  watchId: string
  subjectId: string
  hits: readonly WatchHit[]
}

type Keyed = { watch_id: string; subject_id: string }

/**
 * `applySubjectHits` for a whole batch of subjects in a handful of statements (not five per subject: a round
 * trip each was most of a screening's time): reads their stored hits and `false_positive` decisions in force,
 * replaces the hits and writes the difference as alerts, in the order of `subjects`, in the caller's
 * transaction. The caller holds the subjects' rows (`FOR UPDATE`); each subject appears once.
 */
export async function applyBatchHits(
  client: ClientBase,
  subjects: readonly ScreenedHits[],
): Promise<AlertCounts> {
  const counts: AlertCounts = { new: 0, changed: 0, removed: 0 }
  if (subjects.length === 0) return counts
  const keys = [subjects.map((s) => s.watchId), subjects.map((s) => s.subjectId)]
  const key = (watchId: string, subjectId: string) => JSON.stringify([watchId, subjectId])
  const before = await client.query<StoredHit & Keyed>(
    `SELECT h.watch_id, h.subject_id, h.hit_key, h.entry_hash, h.hit
     FROM watch_hits h JOIN unnest($1::text[], $2::text[]) AS k(watch_id, subject_id) USING (watch_id, subject_id)`,
    keys,
  )
  const decided = await client.query<FalsePositive & Keyed>(
    `SELECT watch_id, subject_id, list, entry_id, entry_hash FROM (
       SELECT DISTINCT ON (d.watch_id, d.subject_id, d.list, d.entry_id)
              d.watch_id, d.subject_id, d.list, d.entry_id, d.decision, d.entry_hash
       FROM watch_decisions d JOIN unnest($1::text[], $2::text[]) AS k(watch_id, subject_id) USING (watch_id, subject_id)
       ORDER BY d.watch_id, d.subject_id, d.list, d.entry_id, d.decision_id DESC) newest
     WHERE decision = 'false_positive' AND entry_hash IS NOT NULL`,
    keys,
  )
  const stored = groupBy(before.rows, (row) => key(row.watch_id, row.subject_id))
  const decisions = groupBy(decided.rows, (row) => key(row.watch_id, row.subject_id))
  const hits: object[] = []
  const alerts: { alert_id: string; watch_id: string; subject_id: string; kind: AlertKind; hit: unknown }[] =
    []
  for (const { watchId, subjectId, hits: now } of subjects) {
    const k = key(watchId, subjectId)
    for (const alert of subjectAlerts(stored.get(k) ?? [], silencingOf(decisions.get(k) ?? []), now)) {
      alerts.push({ alert_id: randomUUID(), watch_id: watchId, subject_id: subjectId, ...alert })
      counts[alert.kind] += 1
    }
    for (const h of now)
      hits.push({
        watch_id: watchId,
        subject_id: subjectId,
        hit_key: h.hitKey,
        entry_hash: h.entryHash,
        score: h.score,
        hit: alertHit(h),
      })
  }
  // Only subjects that had hits have any to delete.
  const had = [...new Map(before.rows.map((row) => [key(row.watch_id, row.subject_id), row])).values()]
  if (had.length > 0)
    await client.query(
      `DELETE FROM watch_hits h USING unnest($1::text[], $2::text[]) AS k(watch_id, subject_id)
       WHERE h.watch_id = k.watch_id AND h.subject_id = k.subject_id`,
      [had.map((row) => row.watch_id), had.map((row) => row.subject_id)],
    )
  if (hits.length > 0)
    await client.query(
      `INSERT INTO watch_hits (watch_id, subject_id, hit_key, entry_hash, score, hit)
       SELECT h.watch_id, h.subject_id, h.hit_key, h.entry_hash, h.score, h.hit
       FROM jsonb_to_recordset($1::jsonb)
         AS h(watch_id text, subject_id text, hit_key text, entry_hash text, score integer, hit jsonb)`,
      [JSON.stringify(hits)],
    )
  if (alerts.length > 0)
    await client.query(
      `INSERT INTO watch_alerts (alert_id, watch_id, subject_id, kind, hit)
       SELECT a.alert_id, a.watch_id, a.subject_id, a.kind, a.hit
       FROM ROWS FROM (jsonb_to_recordset($1::jsonb)
         AS (alert_id uuid, watch_id text, subject_id text, kind text, hit jsonb))
         WITH ORDINALITY AS a(alert_id, watch_id, subject_id, kind, hit, n)
       ORDER BY n`,
      [JSON.stringify(alerts)],
    )
  return counts
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const row of rows) {
    const k = keyOf(row)
    const group = groups.get(k)
    if (group) group.push(row)
    else groups.set(k, [row])
  }
  return groups
}
