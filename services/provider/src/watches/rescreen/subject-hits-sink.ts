import type { PoolClient } from 'pg'
import type { SubjectHit } from './subject-hit'

/**
 * Where a re-screen writes a subject's new hits: in the caller's transaction (`client`), which also records
 * that the change was applied to the subject, so both commit or neither does. The watch API's
 * `applySubjectHits(client, watchId, subjectId, hits)` (which replaces the hits and writes the alerts of the
 * difference, decisions applied) is one: `{ apply: applySubjectHits }`.
 */
export interface SubjectHitsSink {
  apply(client: PoolClient, watchId: string, subjectId: string, hits: readonly SubjectHit[]): Promise<void>
}
