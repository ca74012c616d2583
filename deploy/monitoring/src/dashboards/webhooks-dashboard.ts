import type { DashboardSpec } from '../grafana-dashboard'
import { increase, processPanels, quantiles, rate, sumOf } from '../promql'

const ANSWERED_200 = [
  'pf_webhooks_accepted_total',
  'pf_webhooks_duplicates_total',
  'pf_webhooks_quarantined_total',
]

/** The webhook receiver and its worker: deliveries by answer, the queue, dead letters and quarantine, jobs. */
export const webhooksDashboard: DashboardSpec = {
  uid: 'pf-webhooks',
  title: 'pf-integration-kit / Webhooks (receiver and worker)',
  description:
    'Deliveries from the platform, the durable queue in Redis, and the worker running the handlers.',
  rows: [
    {
      title: 'Receiver',
      panels: [
        {
          title: 'Webhook deliveries by answer',
          description:
            '2xx: stored, duplicates and quarantined events (all answered 200); 4xx: refused (signature, size, JSON, envelope); 503: Redis could not store in time (the platform retries); 500: anything else.',
          unit: 'reqps',
          queries: [
            { expr: sumOf(ANSWERED_200), legend: '2xx' },
            { expr: rate('pf_webhooks_rejected_total{reason!~"store_unavailable|other"}'), legend: '4xx' },
            { expr: rate('pf_webhooks_rejected_total{reason="store_unavailable"}'), legend: '503' },
            { expr: rate('pf_webhooks_rejected_total{reason="other"}'), legend: '500' },
          ],
        },
        {
          title: 'Accepted events by kind',
          description: 'Events verified and durably stored, per event kind.',
          unit: 'reqps',
          queries: [{ expr: rate('pf_webhooks_accepted_total', 'event'), legend: '{{event}}' }],
        },
        {
          title: 'Refusals by reason',
          description: 'A burst of signature refusals: a wrong or rotated secret, or someone probing.',
          unit: 'reqps',
          queries: [{ expr: rate('pf_webhooks_rejected_total', 'reason'), legend: '{{reason}}' }],
        },
        {
          title: 'Enqueue latency',
          description: 'Time to store an event in Redis (dedup and enqueue), before the 200.',
          unit: 's',
          queries: quantiles('pf_webhook_enqueue_duration_seconds'),
        },
      ],
    },
    {
      title: 'Queue',
      panels: [
        {
          title: 'Queue depth by state',
          description: 'Jobs in the queue; every receiver reports the same queue, hence max.',
          unit: 'short',
          queries: [{ expr: 'max by (state) (pf_webhook_queue_jobs)', legend: '{{state}}' }],
        },
        {
          title: 'Age of the oldest waiting job',
          description: 'How late events are: growing means workers are down, too few or too slow.',
          unit: 's',
          queries: [{ expr: 'max(pf_webhook_queue_oldest_waiting_age_seconds)', legend: 'oldest waiting' }],
        },
        {
          title: 'Dead letters',
          description:
            'Jobs in the failed set (kept up to WEBHOOK_KEEP_FAILED), and jobs dead-lettered per hour by event kind; list and replay them with dist/dead-letters.js.',
          unit: 'short',
          queries: [
            { expr: 'max(pf_webhook_queue_jobs{state="failed"})', legend: 'in the failed set' },
            {
              expr: increase('pf_webhook_jobs_total{outcome="dead_letter"}', '1h', 'event'),
              legend: 'new per hour: {{event}}',
            },
          ],
        },
        {
          title: 'Quarantined events by reason',
          description: 'Verified events answered 200 and kept from the handlers, per hour.',
          unit: 'short',
          queries: [
            { expr: increase('pf_webhooks_quarantined_total', '1h', 'reason'), legend: '{{reason}}' },
          ],
        },
      ],
    },
    {
      title: 'Worker',
      panels: [
        {
          title: 'Jobs by outcome',
          description: 'Worker throughput: handled, no_handler, retry, dead_letter.',
          unit: 'ops',
          queries: [{ expr: rate('pf_webhook_jobs_total', 'outcome'), legend: '{{outcome}}' }],
        },
        {
          title: 'Failures by event kind',
          description: 'Attempts that threw (retried or dead-lettered), per event kind.',
          unit: 'ops',
          queries: [
            {
              expr: rate('pf_webhook_jobs_total{outcome=~"retry|dead_letter"}', 'event'),
              legend: '{{event}}',
            },
          ],
        },
        {
          title: 'Handler duration p95 by event kind',
          description: 'Time spent in the handlers.',
          unit: 's',
          queries: quantiles('pf_webhook_handler_duration_seconds', 'event', [0.95]),
        },
      ],
    },
    {
      title: 'Processes',
      panels: processPanels([
        { name: 'receiver', prefix: 'pf_receiver' },
        { name: 'worker', prefix: 'pf_worker' },
      ]),
    },
  ],
}
