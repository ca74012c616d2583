import type { Response, Router } from 'express'
import type { Pool } from 'pg'
import { checkOutboundUrl, OutboundUrlError } from '@pf/provider-kit'
import {
  createValidator,
  WATCH_ID_PATTERN,
  WatchBodySchema,
  WatchDecisionSchema,
  type WatchBody,
} from '@pf/schemas'
import type { SearchEngine } from '../search-engine'
import { ingestSubjects } from './ingest-subjects'
import { entryKey } from './screen-subject'
import { pageOf, readPage } from './read-page'

/** What each Content-Type of a subjects upload is read as. */
const SUBJECT_FORMATS: Record<string, 'array' | 'lines'> = {
  'application/json': 'array',
  'application/x-ndjson': 'lines',
  'application/jsonl': 'lines',
  'application/x-jsonlines': 'lines',
  'application/jsonlines': 'lines',
}

/** What every `/api/watches` route (the alert routes included) answers without a watches database (501). */
export const NO_WATCHES_DATABASE =
  'watches need a PostgreSQL database: set WATCHES_DATABASE_URL (or COMPANIES_DATABASE_URL)'

export interface WatchRoutesOptions {
  /** The watches database; undefined: every watch route answers 501 naming the setting. */
  pool?: Pool
  engine: Pick<SearchEngine, 'lists'>
  outbound: { allowPrivate: boolean; allowedPorts?: readonly number[] }
  subjects: { maxBytes: number; timeoutMs: number }
  /** Called after subjects were written: the screener looks for them now. */
  written?(): void
}

const validateWatch = createValidator(WatchBodySchema)
const validateDecision = createValidator(WatchDecisionSchema)

/**
 * The watch API under `/api` (behind the provider's API key): watches, their subjects (streamed in), the
 * decisions on their hits. One tenant: whoever holds the key sees every watch.
 */
export function watchRoutes({ pool, engine, outbound, subjects, written }: WatchRoutesOptions) {
  return (router: Router) => {
    if (!pool) {
      router.use('/watches', (_req, res) => {
        res.status(501).json({ error: NO_WATCHES_DATABASE })
      })
      return
    }
    router.use('/watches/:watchId', (req, res, next) => {
      if (WATCH_ID_PATTERN.test(req.params.watchId as string)) next()
      else
        res
          .status(400)
          .json({ error: 'watchId must be 1-128 characters, no slash, not starting with a space' })
    })

    router.put('/watches/:watchId', async (req, res) => {
      const checked = validateWatch(req.body)
      if (!checked.ok) return void res.status(400).json({ error: `invalid watch: ${checked.error}` })
      const problem = watchProblem(checked.value, engine, outbound)
      if (problem) return void res.status(400).json({ error: problem })
      const { created, watch } = await putWatch(pool, req.params.watchId as string, checked.value)
      res.status(created ? 201 : 200).json(watch)
    })

    router.get('/watches', async (req, res) => {
      const page = readPage(req)
      if ('error' in page) return void res.status(400).json({ error: page.error })
      const { rows } = await pool.query<WatchRow>(
        `SELECT ${WATCH_COLUMNS} FROM watches WHERE ($1::text IS NULL OR watch_id > $1)
         ORDER BY watch_id LIMIT $2`,
        [page.after ?? null, page.limit + 1],
      )
      const { items, nextCursor } = pageOf(rows, page.limit, (row) => row.watch_id)
      res.json({ watches: items.map(watchView), nextCursor })
    })

    router.get('/watches/:watchId', async (req, res) => {
      const { rows } = await pool.query<WatchRow & { subjects: string; backlog: string }>(
        `SELECT ${WATCH_COLUMNS},
           (SELECT count(*) FROM watch_subjects s WHERE s.watch_id = w.watch_id) AS subjects,
           (SELECT count(*) FROM watch_subjects s WHERE s.watch_id = w.watch_id
              AND s.screened_revision IS DISTINCT FROM s.revision) AS backlog
         FROM watches w WHERE watch_id = $1`,
        [req.params.watchId],
      )
      const [row] = rows
      if (!row) return void notFound(res, 'watch')
      res.json({ ...watchView(row), subjects: Number(row.subjects), screeningBacklog: Number(row.backlog) })
    })

    router.delete('/watches/:watchId', async (req, res) => {
      const { rowCount } = await deleteWatch(pool, req.params.watchId)
      if (!rowCount) return void notFound(res, 'watch')
      res.status(204).end()
    })

    router.post('/watches/:watchId/subjects', async (req, res) => {
      const type = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
      const format = SUBJECT_FORMATS[type]
      if (!format) {
        res.set('connection', 'close')
        return void res.status(415).json({
          error: 'subjects must be application/json (an array) or application/x-ndjson (JSON Lines)',
        })
      }
      if (!(await watchExists(pool, req.params.watchId as string))) {
        res.set('connection', 'close')
        return void notFound(res, 'watch')
      }
      const outcome = await ingestSubjects(pool, req.params.watchId as string, req, { format, ...subjects })
      if (outcome.accepted > 0) written?.()
      const { stopped, ...counts } = outcome
      if (!stopped) return void res.json(counts)
      res.set('connection', 'close')
      res.status(stopped.status).json({ error: stopped.error, ...counts })
    })

    router.get('/watches/:watchId/subjects', async (req, res) => {
      const page = readPage(req)
      if ('error' in page) return void res.status(400).json({ error: page.error })
      if (!(await watchExists(pool, req.params.watchId as string))) return void notFound(res, 'watch')
      const { rows } = await pool.query<SubjectRow>(
        `SELECT ${SUBJECT_COLUMNS} FROM watch_subjects
         WHERE watch_id = $1 AND ($2::text IS NULL OR subject_id > $2) ORDER BY subject_id LIMIT $3`,
        [req.params.watchId, page.after ?? null, page.limit + 1],
      )
      const { items, nextCursor } = pageOf(rows, page.limit, (row) => row.subject_id)
      res.json({ subjects: items.map(subjectView), nextCursor })
    })

    router.get('/watches/:watchId/subjects/:subjectId', async (req, res) => {
      const { watchId, subjectId } = req.params as { watchId: string; subjectId: string }
      const { rows } = await pool.query<SubjectRow>(
        `SELECT ${SUBJECT_COLUMNS} FROM watch_subjects WHERE watch_id = $1 AND subject_id = $2`,
        [watchId, subjectId],
      )
      const [row] = rows
      if (!row) return void notFound(res, 'subject')
      const [hits, decisions] = await Promise.all([
        pool.query<{ hit_key: string; entry_hash: string; score: number; hit: Record<string, unknown> }>(
          `SELECT hit_key, entry_hash, score, hit FROM watch_hits WHERE watch_id = $1 AND subject_id = $2
           ORDER BY score DESC, hit_key`,
          [watchId, subjectId],
        ),
        pool.query<DecisionRow>(
          `SELECT list, entry_id, decision, entry_hash, note, decided_by, decided_at FROM watch_decisions
           WHERE watch_id = $1 AND subject_id = $2 ORDER BY decision_id`,
          [watchId, subjectId],
        ),
      ])
      res.json({
        ...subjectView(row),
        hits: hits.rows.map(({ hit }) => ({
          ...hit,
          decisions: decisions.rows
            .filter((d) => hitLists(hit).some((l) => entryKey(l.name, l.id) === entryKey(d.list, d.entry_id)))
            .map(decisionView),
        })),
        decisions: decisions.rows.map(decisionView),
      })
    })

    router.delete('/watches/:watchId/subjects/:subjectId', async (req, res) => {
      const { rowCount } = await pool.query(
        'DELETE FROM watch_subjects WHERE watch_id = $1 AND subject_id = $2',
        [req.params.watchId, req.params.subjectId],
      )
      if (!rowCount) return void notFound(res, 'subject')
      res.status(204).end()
    })

    router.post('/watches/:watchId/decisions', async (req, res) => {
      const checked = validateDecision(req.body)
      if (!checked.ok) return void res.status(400).json({ error: `invalid decision: ${checked.error}` })
      const { subjectId, list, entryId, decision, note, decidedBy } = checked.value
      const watchId = req.params.watchId as string
      // The hash the decision holds for: the party's as this subject's hit has it now (none: no such hit yet).
      const { rows } = await pool.query<DecisionRow>(
        `INSERT INTO watch_decisions (watch_id, subject_id, list, entry_id, decision, entry_hash, note, decided_by)
         SELECT s.watch_id, s.subject_id, $3, $4, $5,
           (SELECT h.entry_hash FROM watch_hits h WHERE h.watch_id = s.watch_id AND h.subject_id = s.subject_id
              AND h.hit->'lists' @> jsonb_build_array(jsonb_build_object('name', $3::text, 'id', $4::text))
            LIMIT 1),
           $6, $7
         FROM watch_subjects s WHERE s.watch_id = $1 AND s.subject_id = $2
         RETURNING list, entry_id, decision, entry_hash, note, decided_by, decided_at`,
        [watchId, subjectId, list, entryId, decision, note ?? null, decidedBy ?? null],
      )
      const [row] = rows
      if (!row) return void notFound(res, 'subject')
      res.status(201).json({ subjectId, ...decisionView(row) })
    })
  }
}

interface WatchRow {
  watch_id: string
  alert_url: string
  threshold: number | null
  lists: string[] | null
  entity_type: string | null
  created_at: Date
  updated_at: Date
}
const WATCH_COLUMNS = 'watch_id, alert_url, threshold, lists, entity_type, created_at, updated_at'

interface SubjectRow {
  subject_id: string
  name: string
  country: string | null
  birth_year: number | null
  entity_type: string | null
  revision: string
  screened_revision: string | null
  updated_at: Date
}
const SUBJECT_COLUMNS =
  'subject_id, name, country, birth_year, entity_type, revision, screened_revision, updated_at'

interface DecisionRow {
  list: string
  entry_id: string
  decision: string
  entry_hash: string | null
  note: string | null
  decided_by: string | null
  decided_at: Date
}

/** A watch as the API shows it: never its token. */
const watchView = (row: WatchRow) => ({
  watchId: row.watch_id,
  alertUrl: row.alert_url,
  threshold: row.threshold,
  lists: row.lists,
  entityType: row.entity_type,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

const subjectView = (row: SubjectRow) => ({
  subjectId: row.subject_id,
  name: row.name,
  country: row.country,
  birthYear: row.birth_year,
  entityType: row.entity_type,
  screened: row.screened_revision === row.revision,
  updatedAt: row.updated_at.toISOString(),
})

const decisionView = (row: DecisionRow) => ({
  list: row.list,
  entryId: row.entry_id,
  decision: row.decision,
  entryHash: row.entry_hash,
  note: row.note,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at.toISOString(),
})

const hitLists = (hit: Record<string, unknown>) => (hit.lists ?? []) as { name: string; id: string }[]

function notFound(res: Response, what: 'watch' | 'subject') {
  res.status(404).json({ error: `no such ${what}` })
}

async function watchExists(pool: Pool, watchId: string) {
  const { rowCount } = await pool.query('SELECT 1 FROM watches WHERE watch_id = $1', [watchId])
  return Boolean(rowCount)
}

/** What the schema cannot say: an alertUrl the outbound rules refuse, lists not in use. */
function watchProblem(
  body: WatchBody,
  engine: Pick<SearchEngine, 'lists'>,
  outbound: { allowPrivate: boolean; allowedPorts?: readonly number[] },
): string | undefined {
  try {
    checkOutboundUrl(body.alertUrl, 'alertUrl', outbound)
  } catch (error) {
    if (error instanceof OutboundUrlError) return error.message
    throw error
  }
  const selectable = engine.lists.current().selectable
  const unknown = [...new Set((body.lists ?? []).filter((list) => !selectable.has(list)))]
  if (unknown.length > 0)
    return `lists names no list in use: ${unknown.map((l) => JSON.stringify(l)).join(', ')} (GET /api/lists shows them)`
  return undefined
}

/**
 * Creates or replaces a watch. A change of what screening uses (threshold, lists, entity type) puts every
 * subject of the watch back in the screening backlog, in the same transaction: its alerts are the difference.
 */
async function putWatch(pool: Pool, watchId: string, body: WatchBody) {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const before = await client.query<{ choices: string }>(
      `SELECT jsonb_build_array(threshold, lists, entity_type)::text AS choices FROM watches WHERE watch_id = $1
       FOR UPDATE`,
      [watchId],
    )
    const { rows } = await client.query<WatchRow & { choices: string }>(
      `INSERT INTO watches (watch_id, alert_url, alert_token, threshold, lists, entity_type)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (watch_id) DO UPDATE SET alert_url = EXCLUDED.alert_url, alert_token = EXCLUDED.alert_token,
         threshold = EXCLUDED.threshold, lists = EXCLUDED.lists, entity_type = EXCLUDED.entity_type,
         updated_at = now()
       RETURNING ${WATCH_COLUMNS}, jsonb_build_array(threshold, lists, entity_type)::text AS choices`,
      [
        watchId,
        body.alertUrl,
        body.alertToken,
        body.threshold ?? null,
        body.lists ?? null,
        body.entityType ?? null,
      ],
    )
    const row = rows[0] as WatchRow & { choices: string }
    const [was] = before.rows
    if (was && was.choices !== row.choices)
      await client.query('UPDATE watch_subjects SET revision = revision + 1 WHERE watch_id = $1', [watchId])
    await client.query('COMMIT')
    return { created: !was, watch: watchView(row) }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/**
 * The cascade locks the watch's subjects in another order than the screener, which holds a batch of them while it
 * writes their hits: PostgreSQL then ends one side as a deadlock (40P01). The delete is tried again; the screener's
 * batch, once rolled back or committed, no longer stands in its way.
 */
async function deleteWatch(pool: Pool, watchId: string, attempts = 5): Promise<{ rowCount: number | null }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('DELETE FROM watches WHERE watch_id = $1', [watchId])
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= attempts) throw error
    }
  }
}
