import type { DashboardSpec } from '../grafana-dashboard'
import { exchangeDashboard } from './exchange-dashboard'
import { overviewDashboard } from './overview-dashboard'
import { providerDashboard } from './provider-dashboard'
import { webhooksDashboard } from './webhooks-dashboard'

/** The kit's Grafana dashboards: one overview and one per service (the receiver and its worker together). */
export const DASHBOARDS: DashboardSpec[] = [
  overviewDashboard,
  webhooksDashboard,
  providerDashboard,
  exchangeDashboard,
]
