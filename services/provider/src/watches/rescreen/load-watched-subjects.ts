import type { Pool } from 'pg'
import { SEARCH_DEFAULTS } from '../../search-engine'
import type { WatchedSubject } from './watched-subject'

interface SubjectRow {
  watch_id: string
  subject_id: string
  name: string
  country: string | null
  birth_year: number | null
  entity_type: string | null
  threshold: number | null
  lists: string[] | null
  revision: string
}

/**
 * Every watched subject as the database holds it now, whichever replica wrote it, with its watch's threshold
 * (default `SEARCH_DEFAULTS.sanctionsThreshold`), lists (`expandLists`: a list name to the names its entries
 * carry, a list standing for its sub-lists) and entity type; read `batchSize` at a time in key order, so a
 * million subjects never sit in one result.
 */
export async function loadWatchedSubjects(
  pool: Pool,
  {
    batchSize = 10_000,
    expandLists = (lists) => lists,
  }: { batchSize?: number; expandLists?: (lists: readonly string[]) => readonly string[] } = {},
): Promise<WatchedSubject[]> {
  const subjects: WatchedSubject[] = []
  let after = ['', '']
  for (;;) {
    const { rows } = await pool.query<SubjectRow>(
      `SELECT s.watch_id, s.subject_id, s.name, s.country, s.birth_year,
              coalesce(s.entity_type, w.entity_type) AS entity_type, w.threshold, w.lists, s.revision::text
         FROM watch_subjects s JOIN watches w USING (watch_id)
        WHERE (s.watch_id, s.subject_id) > ($1, $2)
        ORDER BY s.watch_id, s.subject_id
        LIMIT $3`,
      [...after, batchSize],
    )
    for (const row of rows)
      subjects.push({
        watchId: row.watch_id,
        subjectId: row.subject_id,
        name: row.name,
        country: row.country,
        birthYear: row.birth_year,
        entityType: row.entity_type,
        threshold: row.threshold ?? SEARCH_DEFAULTS.sanctionsThreshold,
        lists: row.lists && expandLists(row.lists),
        revision: row.revision,
      })
    const last = rows.at(-1)
    if (!last || rows.length < batchSize) return subjects
    after = [last.watch_id, last.subject_id]
  }
}
