import type { DashboardSpec } from '../grafana-dashboard'
import { increase, processPanels, quantiles, rate } from '../promql'

/** The data provider: queries by endpoint and outcome, latency, callbacks, the sanctions lists. */
export const providerDashboard: DashboardSpec = {
  uid: 'pf-provider',
  title: 'pf-integration-kit / Provider',
  description:
    'Queries from the platform, their delivery and callbacks, and the sanctions lists screened against.',
  rows: [
    {
      title: 'Queries',
      panels: [
        {
          title: 'Queries by endpoint and outcome',
          description: 'delivered: results written to S3 or posted; failed: the delivery failed.',
          unit: 'reqps',
          queries: [
            {
              expr: rate('pf_provider_queries_total', 'endpoint, status'),
              legend: '{{endpoint}} {{status}}',
            },
          ],
        },
        {
          title: 'Query latency by endpoint',
          description: 'Search, delivery and callback of one query.',
          unit: 's',
          queries: quantiles('pf_provider_query_duration_seconds', 'endpoint', [0.5, 0.95]),
        },
        {
          title: 'Queries by delivery mechanism',
          description: 'S3 or webhook delivery, per outcome.',
          unit: 'reqps',
          queries: [
            {
              expr: rate('pf_provider_queries_total', 'mechanism, status'),
              legend: '{{mechanism}} {{status}}',
            },
          ],
        },
        {
          title: 'Status callbacks by outcome',
          description: 'Signed callbacks to the platform: failed means its callback URL did not accept them.',
          unit: 'reqps',
          queries: [{ expr: rate('pf_provider_callbacks_total', 'outcome'), legend: '{{outcome}}' }],
        },
      ],
    },
    {
      title: 'Sanctions lists',
      panels: [
        {
          title: 'List age',
          description:
            'Time since each list in use was loaded (oldest pod): past SANCTIONS_REFRESH_INTERVAL when refreshes fail.',
          unit: 's',
          queries: [{ expr: 'max by (list) (pf_provider_list_age_seconds)', legend: '{{list}}' }],
        },
        {
          title: 'List refreshes by outcome',
          description: 'Refreshes per hour; after a failed one the previous lists stay in use.',
          unit: 'short',
          queries: [
            { expr: increase('pf_provider_list_refreshes_total', '1h', 'outcome'), legend: '{{outcome}}' },
          ],
        },
      ],
    },
    { title: 'Processes', panels: processPanels([{ name: 'provider', prefix: 'pf_provider' }]) },
  ],
}
