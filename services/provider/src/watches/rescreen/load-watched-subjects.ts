import type { Pool } from 'pg'
import { SEARCH_DEFAULTS } from '../../search-engine'
import type { WatchedSubject } from './watched-subject'

/** A `watch_subjects` row joined to its watch (`WATCHED_SUBJECT_COLUMNS`). */
export interface SubjectRow {
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
 * What a subject is screened with, selected `FROM watch_subjects s JOIN watches w USING (watch_id)`: the one
 * reading of a watched subject, for the subject screener (its backlog) and the re-screen (every subject).
 */
export const WATCHED_SUBJECT_COLUMNS = `s.watch_id, s.subject_id, s.name, s.country, s.birth_year,
  coalesce(s.entity_type, w.entity_type) AS entity_type, w.threshold, w.lists, s.revision::text`

/**
 * A subject as screened: its own `entityType`, else its watch's; the watch's threshold (default
 * `SEARCH_DEFAULTS.sanctionsThreshold`) and lists, `expandLists` applied.
 */
export function watchedSubjectOf(
  row: SubjectRow,
  expandLists: (lists: readonly string[]) => readonly string[] = (lists) => lists,
): WatchedSubject {
  return {
    watchId: row.watch_id,
    subjectId: row.subject_id,
    name: row.name,
    country: row.country,
    birthYear: row.birth_year,
    entityType: row.entity_type,
    threshold: row.threshold ?? SEARCH_DEFAULTS.sanctionsThreshold,
    lists: row.lists && expandLists(row.lists),
    revision: row.revision,
  }
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
      `SELECT ${WATCHED_SUBJECT_COLUMNS}
         FROM watch_subjects s JOIN watches w USING (watch_id)
        WHERE (s.watch_id, s.subject_id) > ($1, $2)
        ORDER BY s.watch_id, s.subject_id
        LIMIT $3`,
      [...after, batchSize],
    )
    for (const row of rows) subjects.push(watchedSubjectOf(row, expandLists))
    const last = rows.at(-1)
    if (!last || rows.length < batchSize) return subjects
    after = [last.watch_id, last.subject_id]
  }
}
