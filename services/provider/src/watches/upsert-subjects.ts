import type { Pool } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import type { WatchSubject } from '@pf/schemas'

/**
 * Upserts one batch of a watch's subjects in a transaction of its own: COPY into a temporary table, then one
 * INSERT … ON CONFLICT. An upsert that changes what decides a match (name, country, birth year, entity type)
 * bumps `revision`, which puts the subject in the screening backlog; the same values again change nothing.
 * A subject given twice in one batch counts once, its last values kept. Returns how many rows were written.
 */
export async function upsertSubjects(pool: Pool, watchId: string, subjects: readonly WatchSubject[]) {
  const last = new Map(subjects.map((subject) => [subject.subjectId, subject]))
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(
      `CREATE TEMP TABLE subjects_in (subject_id text, name text, country text, birth_year integer,
         entity_type text) ON COMMIT DROP`,
    )
    const copy = client.query(copyFrom('COPY subjects_in FROM STDIN'))
    const done = new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve)
      copy.on('error', reject)
    })
    let text = ''
    for (const s of last.values())
      text += `${[s.subjectId, s.name, s.country, s.birthYear, s.entityType].map(copyField).join('\t')}\n`
    copy.end(text)
    await done
    await client.query(
      `INSERT INTO watch_subjects AS s (watch_id, subject_id, name, country, birth_year, entity_type)
       SELECT $1, subject_id, name, country, birth_year, entity_type FROM subjects_in
       ON CONFLICT (watch_id, subject_id) DO UPDATE SET
         name = EXCLUDED.name, country = EXCLUDED.country, birth_year = EXCLUDED.birth_year,
         entity_type = EXCLUDED.entity_type, updated_at = now(), revision = s.revision + 1
       WHERE (s.name, s.country, s.birth_year, s.entity_type)
         IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.country, EXCLUDED.birth_year, EXCLUDED.entity_type)`,
      [watchId],
    )
    await client.query('COMMIT')
    return last.size
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/** A value in COPY's text format: `\N` for none, the format's escapes for backslash, tab and line ends. */
function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N'
  return String(value).replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] as string,
  )
}
