/**
 * `promtool test rules` cases for the alerts of `alert-rules.ts`, rendered to
 * deploy/monitoring/prometheus/pf-alerts.test.yml. Each case feeds series (promtool's expanding notation:
 * `0+10x15` is 0, 10, 20, … for 15 more steps of one minute) and says, at given times, which alerts fire with
 * which labels; the annotations expected are the rule's own, its `{{ $labels.x }}` filled from those labels.
 */
export interface AlertTestCase {
  name: string
  series: Record<string, string>
  /** At `at` (minutes), `alert` fires once per label set in `fires` (none: it does not fire). */
  checks: { at: string; alert: string; fires: Record<string, string>[] }[]
}

export const ALERT_TESTS: AlertTestCase[] = [
  {
    name: '503 rate: 6 of 66 deliveries a minute refused (9%) fire after 2 minutes',
    series: {
      'pf_webhooks_rejected_total{reason="store_unavailable"}': '0+6x15',
      'pf_webhooks_accepted_total{event="purchase.completed"}': '0+60x15',
      pf_webhooks_duplicates_total: '0x15',
    },
    checks: [
      { at: '2m', alert: 'PfWebhookReceiver503Rate', fires: [] },
      { at: '10m', alert: 'PfWebhookReceiver503Rate', fires: [{}] },
    ],
  },
  {
    name: '503 rate: every delivery refused, before any was ever accepted, fires too',
    series: { 'pf_webhooks_rejected_total{reason="store_unavailable"}': '0+5x15' },
    checks: [{ at: '10m', alert: 'PfWebhookReceiver503Rate', fires: [{}] }],
  },
  {
    name: '503 rate: 1 in 600 (0.17%) stays quiet, and so do other refusals',
    series: {
      'pf_webhooks_rejected_total{reason="store_unavailable"}': '0+1x15',
      'pf_webhooks_rejected_total{reason="signature"}': '0+100x15',
      'pf_webhooks_accepted_total{event="purchase.completed"}': '0+600x15',
    },
    checks: [{ at: '10m', alert: 'PfWebhookReceiver503Rate', fires: [] }],
  },
  {
    name: 'dead letters: one more event dead-lettered fires; none for 15 minutes is quiet again',
    series: {
      'pf_webhook_jobs_total{event="purchase.completed",outcome="dead_letter"}': '0 0 0 1 1 1x30',
      'pf_webhook_jobs_total{event="purchase.completed",outcome="handled"}': '0+10x35',
    },
    checks: [
      { at: '2m', alert: 'PfWebhookDeadLettersGrowing', fires: [] },
      { at: '5m', alert: 'PfWebhookDeadLettersGrowing', fires: [{}] },
      { at: '30m', alert: 'PfWebhookDeadLettersGrowing', fires: [] },
    ],
  },
  {
    name: 'queue age: the oldest waiting job past 5 minutes, for 5 minutes, fires',
    series: { 'pf_webhook_queue_oldest_waiting_age_seconds{pod="webhook-receiver-1"}': '0+60x20' },
    checks: [
      { at: '8m', alert: 'PfWebhookQueueOldestWaiting', fires: [] },
      { at: '12m', alert: 'PfWebhookQueueOldestWaiting', fires: [{}] },
    ],
  },
  {
    name: 'worker failures: a handler failing a third of its attempts fires per event kind',
    series: {
      'pf_webhook_jobs_total{event="purchase.completed",outcome="retry"}': '0+5x30',
      'pf_webhook_jobs_total{event="purchase.completed",outcome="handled"}': '0+10x30',
      'pf_webhook_jobs_total{event="session.created",outcome="handled"}': '0+10x30',
    },
    checks: [{ at: '25m', alert: 'PfWebhookWorkerFailures', fires: [{ event: 'purchase.completed' }] }],
  },
  {
    name: 'list refresh: a failed refresh fires; successful ones are quiet',
    series: {
      'pf_provider_list_refreshes_total{outcome="failed",pod="provider-1"}': '0 0 0 1x10',
      'pf_provider_list_refreshes_total{outcome="ok",pod="provider-2"}': '0+1x13',
    },
    checks: [
      { at: '2m', alert: 'PfProviderListRefreshFailed', fires: [] },
      { at: '5m', alert: 'PfProviderListRefreshFailed', fires: [{}] },
    ],
  },
  {
    name: 'list age: a list loaded more than 26 hours ago fires, named; a fresh one on another pod does not hide it',
    series: {
      'pf_provider_list_age_seconds{list="ofac-sdn",pod="provider-1"}': '90000+60x70',
      'pf_provider_list_age_seconds{list="ofac-sdn",pod="provider-2"}': '0+60x70',
      'pf_provider_list_age_seconds{list="un-sc-consolidated",pod="provider-1"}': '0+60x70',
    },
    checks: [
      { at: '30m', alert: 'PfProviderListStale', fires: [] },
      { at: '65m', alert: 'PfProviderListStale', fires: [{ list: 'ofac-sdn' }] },
    ],
  },
  {
    name: 'identity provider: a tenth of exchanges failing there fires after 5 minutes',
    series: {
      'pf_exchange_total{outcome="idp_unavailable"}': '0+2x20',
      'pf_exchange_total{outcome="warm"}': '0+18x20',
    },
    checks: [{ at: '12m', alert: 'PfExchangeIdpErrors', fires: [{}] }],
  },
]
