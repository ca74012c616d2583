import type { Pool } from 'pg'
import { RESCREEN_LOCK } from './rescreen-migrations'
import type { RecordedChange } from './record-list-change'
import { nextHits, rescreenTouched, type SubjectRescreen } from './rescreen-change'
import type { SubjectHit } from './subject-hit'
import type { SubjectHitsSink } from './subject-hits-sink'
import { WatchedNameIndex } from './watched-name-index'
import type { WatchedSubject } from './watched-subject'

export interface RescreenOptions {
  pool: Pool
  sink: SubjectHitsSink
  /** The subjects, read from the database at each change (`loadWatchedSubjects`). */
  loadSubjects: (pool: Pool) => Promise<WatchedSubject[]>
  /** Subjects whose hits are replaced in one transaction. */
  batchSize?: number
  /** Asked between batches: true leaves the rest of the change pending (the process is stopping). */
  stopped?: () => boolean
}

/**
 * Re-screens the recorded list changes (`recordListChange`), oldest first, on one replica at a time: the one
 * holding the session advisory lock `RESCREEN_LOCK` (a killed replica's connection ends and the lock with it).
 * For each change it reads every subject from the database (those written through other replicas too), finds
 * those the change concerns (`rescreenTouched`), and, per batch, in one transaction: records the subjects in
 * `watch_list_change_subjects` (those already there were done by a replica before it: left alone), locks
 * their rows, reads their current hits and hands each its next ones to `sink`. Returns the changes and subjects
 * done, or null when another replica holds the lock.
 */
export async function rescreenListChanges({
  pool,
  sink,
  loadSubjects,
  batchSize = 500,
  stopped = () => false,
}: RescreenOptions): Promise<{ changes: number; subjects: number } | null> {
  const lock = await pool.connect()
  // The lock lives as long as this connection: once it is lost another replica may take over, so stop.
  let lost: Error | undefined
  const onLost = (error: Error) => (lost = error)
  lock.on('error', onLost)
  try {
    const { rows } = await lock.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      RESCREEN_LOCK,
    ])
    if (!rows[0]?.locked) return null
    const done = { changes: 0, subjects: 0 }
    try {
      for (;;) {
        const pending = await lock.query<{ change_id: string; touched: RecordedChange }>(
          `SELECT change_id, touched FROM watch_list_changes WHERE status = 'pending' ORDER BY change_id LIMIT 1`,
        )
        const change = pending.rows[0]
        if (!change) return done
        const index = WatchedNameIndex.build(await loadSubjects(pool))
        const rescreen = rescreenTouched(change.touched, index)
        withVersions(rescreen.subjects, change.touched.versions ?? {})
        for (let from = 0; from < rescreen.subjects.length; from += batchSize) {
          if (lost) throw lost
          if (stopped()) return done
          const batch = rescreen.subjects.slice(from, from + batchSize)
          done.subjects += await applyBatch(pool, sink, change.change_id, rescreen.replacedKeys, batch)
        }
        await lock.query(
          `UPDATE watch_list_changes SET status = 'done', done_at = now() WHERE change_id = $1;`,
          [change.change_id],
        )
        // A done change is never taken again: its progress rows have served.
        await lock.query('DELETE FROM watch_list_change_subjects WHERE change_id = $1', [change.change_id])
        done.changes += 1
      }
    } finally {
      // A lost connection took the lock with it.
      if (!lost) await lock.query('SELECT pg_advisory_unlock($1)', [RESCREEN_LOCK])
    }
  } finally {
    lock.off('error', onLost)
    lock.release(lost)
  }
}

/** Every hit after the change names the version of each list it is on, as screening answers do. */
function withVersions(subjects: readonly SubjectRescreen[], versions: Record<string, string>): void {
  for (const { after } of subjects)
    for (const { hit } of after)
      for (const list of hit.lists) list.version = versions[list.name] ?? list.version
}

interface HitRow {
  watch_id: string
  subject_id: string
  hit_key: string
  entry_hash: string
  score: number
  hit: SubjectHit['hit']
}

/** One transaction: the batch's subjects not done yet get their next hits. Returns how many. */
async function applyBatch(
  pool: Pool,
  sink: SubjectHitsSink,
  changeId: string,
  replacedKeys: ReadonlySet<string>,
  batch: readonly SubjectRescreen[],
): Promise<number> {
  const client = await pool.connect()
  // A connection lost between queries fails the next one (and the batch rolls back); not the process.
  const ignore = () => undefined
  client.on('error', ignore)
  let failed: Error | undefined
  try {
    await client.query('BEGIN')
    const ids = [batch.map(({ subject }) => subject.watchId), batch.map(({ subject }) => subject.subjectId)]
    const fresh = await client.query<{ watch_id: string; subject_id: string }>(
      `INSERT INTO watch_list_change_subjects (change_id, watch_id, subject_id)
       SELECT $1, * FROM unnest($2::text[], $3::text[])
       ON CONFLICT DO NOTHING RETURNING watch_id, subject_id`,
      [changeId, ...ids],
    )
    const key = (watchId: string, subjectId: string) => `${watchId}\u0000${subjectId}`
    const todo = new Set(fresh.rows.map((row) => key(row.watch_id, row.subject_id)))
    // Locked against the watch API's writes of the same subjects until the batch commits.
    const present = await client.query<{ watch_id: string; subject_id: string; revision: string }>(
      `SELECT watch_id, subject_id, revision::text FROM watch_subjects
        WHERE (watch_id, subject_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        ORDER BY watch_id, subject_id FOR UPDATE`,
      ids,
    )
    const revisions = new Map(present.rows.map((row) => [key(row.watch_id, row.subject_id), row.revision]))
    const hits = await client.query<HitRow>(
      `SELECT watch_id, subject_id, hit_key, entry_hash, score, hit FROM watch_hits
        WHERE (watch_id, subject_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      ids,
    )
    const current = new Map<string, SubjectHit[]>()
    for (const row of hits.rows) {
      const hit = { hitKey: row.hit_key, entryHash: row.entry_hash, score: row.score, hit: row.hit }
      const list = current.get(key(row.watch_id, row.subject_id))
      if (list) list.push(hit)
      else current.set(key(row.watch_id, row.subject_id), [hit])
    }
    let applied = 0
    for (const { subject, after } of batch) {
      const id = key(subject.watchId, subject.subjectId)
      // Gone, or changed since it was read: its own screening (`screened_revision`) takes it whole.
      if (!todo.has(id) || !revisions.has(id)) continue
      if (subject.revision !== undefined && revisions.get(id) !== subject.revision) continue
      await sink.apply(
        client,
        subject.watchId,
        subject.subjectId,
        nextHits(current.get(id) ?? [], replacedKeys, after),
      )
      applied += 1
    }
    await client.query('COMMIT')
    return applied
  } catch (error) {
    failed = error instanceof Error ? error : new Error(String(error))
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.off('error', ignore)
    // A connection that failed is not handed to the next caller.
    client.release(failed)
  }
}
