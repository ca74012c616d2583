import type { SanctionsQuery } from '../../screening/sanctions-index'

/** A watched subject with what its watch screens it with: the re-screen's unit of work. */
export interface WatchedSubject {
  watchId: string
  subjectId: string
  name: string
  country?: string | null
  birthYear?: number | null
  /** The subject's own `entityType`, else its watch's. */
  entityType?: string | null
  /** The watch's threshold, 0-100. */
  threshold: number
  /** The watch's lists as entries carry them in `list` (a list already expanded to its sub-lists); null: all. */
  lists?: readonly string[] | null
  /** `watch_subjects.revision` when read from the database: a subject changed since is screened anew anyway. */
  revision?: string
}

/** The screening query of a subject: every hit at its watch's threshold, no cap. */
export function subjectQuery(subject: WatchedSubject): SanctionsQuery {
  return {
    name: subject.name,
    threshold: subject.threshold,
    limit: Number.MAX_SAFE_INTEGER,
    country: subject.country ?? null,
    birthYear: subject.birthYear ?? null,
    entityType: subject.entityType ?? null,
    ...(subject.lists ? { lists: new Set(subject.lists) } : {}),
  }
}
