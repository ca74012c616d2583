import type { DashboardSpec, PanelSpec } from '../grafana-dashboard'
import { rate, sumOf } from '../promql'

const stat = (title: string, description: string, unit: string, expr: string): PanelSpec => ({
  title,
  description,
  unit,
  type: 'stat',
  width: 6,
  queries: [{ expr }],
})

/** One screen across the services: what the alerts watch, each linking to its service's dashboard. */
export const overviewDashboard: DashboardSpec = {
  uid: 'pf-overview',
  title: 'pf-integration-kit / Overview',
  description: 'The signals the alerts watch, across the receiver, worker, provider and exchange.',
  rows: [
    {
      title: 'Webhooks',
      panels: [
        stat(
          'Events accepted',
          'Events verified and stored per second.',
          'reqps',
          rate('pf_webhooks_accepted_total'),
        ),
        stat(
          '503 share',
          'Share of deliveries answered 503 (Redis could not store in time).',
          'percentunit',
          `(${rate('pf_webhooks_rejected_total{reason="store_unavailable"}')} or vector(0)) / (${sumOf([
            'pf_webhooks_accepted_total',
            'pf_webhooks_duplicates_total',
            'pf_webhooks_quarantined_total',
            'pf_webhooks_rejected_total',
          ])})`,
        ),
        stat(
          'Oldest waiting job',
          'Age of the oldest job waiting for a worker.',
          's',
          'max(pf_webhook_queue_oldest_waiting_age_seconds)',
        ),
        stat(
          'Dead letters',
          'Jobs in the failed set.',
          'short',
          'max(pf_webhook_queue_jobs{state="failed"})',
        ),
      ],
    },
    {
      title: 'Provider and exchange',
      panels: [
        stat(
          'Failed queries',
          'Share of provider queries whose delivery failed.',
          'percentunit',
          `(${rate('pf_provider_queries_total{status="failed"}')} or vector(0)) / ${rate('pf_provider_queries_total')}`,
        ),
        stat(
          'Oldest sanctions list',
          'Age of the oldest list in use.',
          's',
          'max(pf_provider_list_age_seconds)',
        ),
        stat(
          'Exchanges failing at the IdP',
          'Share of exchanges with idp_error or idp_unavailable.',
          'percentunit',
          `(${rate('pf_exchange_total{outcome=~"idp_error|idp_unavailable"}')} or vector(0)) / ${rate('pf_exchange_total')}`,
        ),
        stat('Exchanges', 'Token exchanges per second.', 'reqps', rate('pf_exchange_total')),
      ],
    },
    {
      title: 'Throughput',
      panels: [
        {
          title: 'Work per second',
          description: 'Webhooks stored, jobs run, provider queries and exchanges.',
          unit: 'ops',
          queries: [
            { expr: rate('pf_webhooks_accepted_total'), legend: 'webhooks accepted' },
            { expr: rate('pf_webhook_jobs_total'), legend: 'jobs run' },
            { expr: rate('pf_provider_queries_total'), legend: 'provider queries' },
            { expr: rate('pf_exchange_total'), legend: 'exchanges' },
          ],
        },
        {
          title: 'Failures per second',
          description:
            'Refusals, failed jobs, failed queries and exchanges failing at the identity provider.',
          unit: 'ops',
          queries: [
            { expr: rate('pf_webhooks_rejected_total'), legend: 'webhooks refused' },
            { expr: rate('pf_webhook_jobs_total{outcome=~"retry|dead_letter"}'), legend: 'job failures' },
            { expr: rate('pf_provider_queries_total{status="failed"}'), legend: 'queries failed' },
            { expr: rate('pf_exchange_idp_errors_total'), legend: 'IdP errors' },
          ],
        },
      ],
    },
  ],
}
