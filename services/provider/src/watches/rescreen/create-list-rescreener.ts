import type { Pool } from 'pg'
import type { Logger } from '@pf/service-kit'
import type { SearchEngine } from '../../search-engine'
import { applySubjectHits } from '../apply-subject-hits'
import { backgroundLoop } from '../background-loop'
import { loadWatchedSubjects } from './load-watched-subjects'
import { rescreenListChanges } from './rescreen-list-changes'
import type { SubjectHitsSink } from './subject-hits-sink'

export interface ListRescreener {
  start(): void
  /** Looks for recorded list changes now (after a refresh recorded one), instead of at the next interval. */
  wake(): void
  /** Stops after the batch in hand (its transaction commits or rolls back whole); the change's rest waits. */
  stop(): Promise<void>
  /** Re-screens the recorded changes now; null when another replica holds the re-screen lock. */
  drain(): ReturnType<typeof rescreenListChanges>
}

/**
 * The re-screen of recorded list changes (`rescreenListChanges`) on this replica: at start, when woken after a
 * refresh, and every `intervalMs`, which also takes over a change that a killed replica left unfinished (its
 * lock ended with its connection). Each subject's hits are written by `applySubjectHits`, so its alerts are
 * `new`/`changed`/`removed` with decisions applied exactly as the subject screener writes them.
 */
export function createListRescreener({
  pool,
  engine,
  logger,
  intervalMs,
  alertsWritten,
}: {
  pool: Pool
  engine: Pick<SearchEngine, 'lists'>
  logger: Logger
  intervalMs: number
  /** Called after a change that wrote alerts is done (the alert deliverer's `wake`), so they go out at once. */
  alertsWritten?: () => void
}): ListRescreener {
  let alerts = 0
  const sink: SubjectHitsSink = {
    async apply(client, watchId, subjectId, hits) {
      // Scores as the screener keeps them (`screenSubject`): whole points.
      const rounded = hits.map((hit) => ({ ...hit, score: Math.round(hit.score) }))
      const written = await applySubjectHits(client, watchId, subjectId, rounded)
      alerts += written.new + written.changed + written.removed
    },
  }
  // A watch's lists as its entries carry them (a list stands for its sub-lists), on this replica's lists.
  const expandLists = (lists: readonly string[]) => {
    const { selectable } = engine.lists.current()
    return lists.flatMap((name) => selectable.get(name) ?? [name])
  }
  const drain = async () => {
    const done = await rescreenListChanges({
      pool,
      sink,
      loadSubjects: (db) => loadWatchedSubjects(db, { expandLists }),
      stopped: () => loop.stopping,
    })
    // Batches committed before a failure wrote alerts too.
    if (alerts > 0) alertsWritten?.()
    alerts = 0
    return done
  }

  const loop = backgroundLoop(intervalMs, async () => {
    try {
      const done = await drain()
      if (done && done.changes > 0) logger.info(done, 'list changes re-screened for the watches')
    } catch (error) {
      logger.error({ err: error }, 'list change re-screen failed; the change stays to be re-screened')
    }
  })
  return { start: loop.start, wake: loop.wake, stop: loop.stop, drain }
}
