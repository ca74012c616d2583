import type { Pool } from 'pg'
import { Gauge, type Registry } from 'prom-client'
import type { Logger } from '@pf/service-kit'
import type { SearchEngine } from '../search-engine'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { applyBatchHits, type ScreenedHits } from './apply-batch-hits'
import { backgroundLoop } from './background-loop'
import { WATCHED_SUBJECT_COLUMNS, watchedSubjectOf, type SubjectRow } from './rescreen/load-watched-subjects'
import { screenSubject } from './screen-subject'

/** Subjects screened per transaction: each batch's hits and alerts are committed together. */
export const SCREENING_BATCH = 500
/**
 * Batches one replica screens at once, each on its own connection: while one waits on PostgreSQL (which runs
 * on another core) the other screens, so the backlog drains faster than one batch after the other.
 */
export const SCREENING_CONCURRENCY = 2
/** Subjects screened between two turns of the event loop, so requests are answered during a batch. */
const SCREENED_PER_TURN = 25

export interface WatchScreener {
  start(): void
  /** Looks for work now (after an upload), instead of at the next interval. */
  wake(): void
  /** Stops after the batch in hand (its transaction commits or rolls back whole). */
  stop(): Promise<void>
  /** Screens batches until none is left that this replica can take; returns how many subjects it screened. */
  drain(): Promise<number>
}

/**
 * The background screening of new and changed subjects (`screened_revision` behind `revision`): batches taken
 * with `FOR UPDATE SKIP LOCKED`, so replicas (and the `SCREENING_CONCURRENCY` batches of one) share the backlog
 * and never screen one subject twice at once; the batch's subjects screened, then their hits replaced and their
 * alerts written (`applyBatchHits`) in the batch's transaction, which also marks the revisions screened. An upsert meanwhile waits on the row lock, then bumps the revision again. The
 * backlog's size is `pf_provider_watch_screening_backlog`.
 */
export function createWatchScreener({
  pool,
  engine,
  logger,
  registry,
  intervalMs,
  alertsWritten,
}: {
  pool: Pool
  engine: Pick<SearchEngine, 'lists' | 'searchSanctions'>
  logger: Logger
  registry: Registry
  intervalMs: number
  /** Called after a batch that wrote alerts commits (the alert deliverer's `wake`), so they go out at once. */
  alertsWritten?: () => void
}): WatchScreener {
  new Gauge({
    name: 'pf_provider_watch_screening_backlog',
    help: 'Watched subjects waiting to be screened (new or changed since their last screening)',
    registers: [registry],
    async collect() {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM watch_subjects WHERE screened_revision IS DISTINCT FROM revision',
      )
      this.set(Number(rows[0]?.n ?? 0))
    },
  })
  let running: Promise<unknown> | undefined

  const batch = async (): Promise<number> => {
    const client = await pool.connect()
    let alerts = 0
    try {
      await client.query('BEGIN')
      const { rows } = await client.query<SubjectRow>(
        `SELECT ${WATCHED_SUBJECT_COLUMNS}
         FROM watch_subjects s JOIN watches w USING (watch_id)
         WHERE s.screened_revision IS DISTINCT FROM s.revision
         LIMIT $1 FOR UPDATE OF s SKIP LOCKED`,
        [SCREENING_BATCH],
      )
      const screened: ScreenedHits[] = []
      for (const row of rows) {
        // The watch's lists as given: screening expands them (and refuses one no longer in use).
        const subject = watchedSubjectOf(row)
        screened.push({
          watchId: row.watch_id,
          subjectId: row.subject_id,
          hits: screenSubject(engine, { ...subject, lists: row.lists, entityType: null }, subject),
        })
        if (screened.length % SCREENED_PER_TURN === 0) await yieldToLoop()
      }
      const written = await applyBatchHits(client, screened)
      alerts = written.new + written.changed + written.removed
      if (rows.length > 0)
        await client.query(
          `UPDATE watch_subjects s SET screened_revision = s.revision
           FROM unnest($1::text[], $2::text[]) AS k(watch_id, subject_id)
           WHERE s.watch_id = k.watch_id AND s.subject_id = k.subject_id`,
          [rows.map((row) => row.watch_id), rows.map((row) => row.subject_id)],
        )
      await client.query('COMMIT')
      if (alerts > 0) alertsWritten?.()
      return rows.length
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      client.release()
    }
  }

  // Each worker takes batches until it finds none (SKIP LOCKED: the rest are in the other workers' hands).
  const worker = async () => {
    let screened = 0
    for (let n = -1; n !== 0 && !loop.stopping;) {
      n = await batch()
      screened += n
    }
    return screened
  }
  const drain = async () => {
    // Settled, not all: a failed worker's sibling still finishes its batch before drain (and stop) returns.
    const workers = Promise.allSettled(Array.from({ length: SCREENING_CONCURRENCY }, worker))
    running = workers
    let screened = 0
    for (const outcome of await workers) {
      if (outcome.status === 'rejected') throw outcome.reason
      screened += outcome.value
    }
    return screened
  }

  const loop = backgroundLoop(intervalMs, async () => {
    try {
      const screened = await drain()
      if (screened > 0) logger.info({ screened }, 'watched subjects screened')
    } catch (error) {
      logger.error({ err: error }, 'watch screening failed; the subjects stay in the backlog')
    }
  })

  return {
    start: loop.start,
    wake: loop.wake,
    drain,
    async stop() {
      await loop.stop()
      await running?.catch(() => 0)
    },
  }
}
