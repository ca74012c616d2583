import type { RouteDoc } from '@pf/provider-kit'
import { watchRouteDoc } from '../watch-route-docs'
import { DEFAULT_ALERT_PAGE, MAX_ALERT_PAGE } from './watch-alert-routes'

/** The alert routes (`watchAlertRoutes`) in the provider's OpenAPI document. */
export const WATCH_ALERT_ROUTE_DOCS: readonly RouteDoc[] = [
  watchRouteDoc(
    'get',
    '/watches/{watchId}/alerts',
    'The alerts not yet acknowledged (pending) or past their retry horizon (failed), in delivery order',
    {
      query: {
        status: { schema: { type: 'string', enum: ['pending', 'failed'], default: 'pending' } },
        limit: {
          schema: { type: 'integer', minimum: 1, maximum: MAX_ALERT_PAGE, default: DEFAULT_ALERT_PAGE },
        },
        cursor: { schema: { type: 'string' }, description: 'the nextCursor of the page before' },
      },
    },
  ),
  watchRouteDoc(
    'post',
    '/watches/{watchId}/alerts/retry',
    "Re-queue the watch's failed alert batch with a whole retry horizon: {watchId, requeued}",
  ),
]
