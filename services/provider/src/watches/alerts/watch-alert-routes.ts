import type { Request, Response, Router } from 'express'
import type { Pool } from 'pg'
import { listWatchAlerts, type ListedAlertStatus } from './list-watch-alerts'
import { requeueFailedBatches } from './requeue-failed-batches'

/** A page of `GET …/alerts`: `limit` defaults to this … */
export const DEFAULT_ALERT_PAGE = 100
/** … and may not exceed this. */
export const MAX_ALERT_PAGE = 1000
const MAX_WATCH_ID_LENGTH = 256

export interface WatchAlertRoutesOptions {
  /** The watches database (without one, `watchRoutes` answers 501 for every `/watches` path before these). */
  pool: Pool
  /** Called after a re-queue, so the deliverer tries at once (`AlertDeliverer.wake`). */
  onRequeued?(): void
}

/**
 * Mounts, on the kit's `/api` router (API key, body limit):
 * - `GET /watches/{watchId}/alerts?status=pending|failed&limit=&cursor=`: the alerts not yet acknowledged,
 *   `{watchId, status, alerts, nextCursor}`, cursor-paginated (`listWatchAlerts`);
 * - `POST /watches/{watchId}/alerts/retry`: re-queues the watch's failed batch, `{requeued}`.
 * Both answer 404 for a watch that does not exist.
 */
export function watchAlertRoutes({ pool, onRequeued }: WatchAlertRoutesOptions) {
  return (router: Router): void => {
    router.get('/watches/:watchId/alerts', async (req, res) => {
      const query = readListQuery(req)
      if ('error' in query) return void res.status(400).json({ error: query.error })
      const watchId = req.params.watchId as string
      if (!(await watchExists(pool, watchId))) return notFound(res)
      const page = await listWatchAlerts(pool, watchId, query)
      res.json({ watchId, status: query.status, ...page })
    })
    router.post('/watches/:watchId/alerts/retry', async (req, res) => {
      const watchId = req.params.watchId as string
      if (!(await watchExists(pool, watchId))) return notFound(res)
      const requeued = await requeueFailedBatches(pool, watchId)
      if (requeued > 0) onRequeued?.()
      res.json({ watchId, requeued })
    })
  }
}

type ListQuery = { status: ListedAlertStatus; limit: number; after: bigint } | { error: string }

function readListQuery(req: Request): ListQuery {
  const { status = 'pending', limit = String(DEFAULT_ALERT_PAGE), cursor = '0' } = req.query
  if (status !== 'pending' && status !== 'failed') return { error: 'status must be pending or failed' }
  if (
    typeof limit !== 'string' ||
    !/^\d{1,4}$/.test(limit) ||
    Number(limit) < 1 ||
    Number(limit) > MAX_ALERT_PAGE
  )
    return { error: `limit must be a whole number from 1 to ${MAX_ALERT_PAGE}` }
  if (typeof cursor !== 'string' || !/^\d{1,18}$/.test(cursor))
    return { error: 'cursor must be the nextCursor of a previous page' }
  return { status, limit: Number(limit), after: BigInt(cursor) }
}

async function watchExists(pool: Pool, watchId: string): Promise<boolean> {
  if (watchId.length > MAX_WATCH_ID_LENGTH) return false
  const { rowCount } = await pool.query('SELECT 1 FROM watches WHERE watch_id = $1', [watchId])
  return Boolean(rowCount)
}

function notFound(res: Response) {
  res.status(404).json({ error: 'no such watch' })
}
