import type { RouteDoc } from '@pf/provider-kit'
import { LISTS_ROUTE } from './endpoints/lists-route'
import { WATCH_ALERT_ROUTE_DOCS } from './watches/alerts/watch-alert-route-docs'
import { WATCH_ROUTE_DOCS } from './watches/watch-route-docs'

/** The provider's extra routes under `/api` as the kit documents them (and which stream their bodies). */
export const PROVIDER_ROUTE_DOCS: readonly RouteDoc[] = [
  LISTS_ROUTE,
  ...WATCH_ROUTE_DOCS,
  ...WATCH_ALERT_ROUTE_DOCS,
]
