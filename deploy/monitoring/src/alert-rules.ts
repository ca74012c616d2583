/**
 * The one source of the kit's Prometheus alerts: `render-monitoring.ts` writes it as a plain rules file
 * (deploy/monitoring/prometheus/pf-alerts.rules.yml) and as the Prometheus Operator's `PrometheusRule`
 * (deploy/k8s/monitoring/prometheus-rule.yaml). Every alert carries `summary`, `description` and `runbook`
 * annotations; `{{ $labels.x }}` is the only template they use, so the promtool tests can state them exactly.
 * Series are summed across pods (every receiver pod reports the same queue, so queue gauges take `max`).
 */
export interface AlertRule {
  alert: string
  expr: string
  for?: string
  severity: 'critical' | 'warning' | 'info'
  summary: string
  description: string
  /** What to look at and do, in order. */
  runbook: string
}

export interface AlertGroup {
  name: string
  rules: AlertRule[]
}

// `or vector(0)`: a counter whose label set has not been seen yet has no series, and a sum over nothing is
// nothing, which would hide the 503s when no other answer was ever counted.
const webhookAnswers = [
  'pf_webhooks_accepted_total',
  'pf_webhooks_duplicates_total',
  'pf_webhooks_quarantined_total',
  'pf_webhooks_rejected_total',
]
  .map((name) => `(sum(rate(${name}[5m])) or vector(0))`)
  .join('\n  + ')

export const ALERT_GROUPS: AlertGroup[] = [
  {
    name: 'pf-webhooks',
    rules: [
      {
        alert: 'PfWebhookReceiver503Rate',
        expr: `sum(rate(pf_webhooks_rejected_total{reason="store_unavailable"}[5m]))\n/\n(\n  ${webhookAnswers}\n) > 0.01`,
        for: '2m',
        severity: 'critical',
        summary: 'The webhook receiver answers 503 to more than 1% of deliveries',
        description:
          'Events could not be stored in Redis in time (WEBHOOK_ENQUEUE_TIMEOUT_MS); the platform retries them, but its retries are limited.',
        runbook:
          'Check Redis: is it up, is it out of memory (maxmemory with noeviction refuses writes), are the replicas REDIS_WAIT_REPLICAS waits for online? Check the receiver pods\' /ready and their logs for "store unavailable". Once Redis answers, the platform\'s retries come back on their own; nothing to replay.',
      },
      {
        alert: 'PfWebhookDeadLettersGrowing',
        expr: 'sum(increase(pf_webhook_jobs_total{outcome="dead_letter"}[15m])) > 0',
        severity: 'warning',
        summary: 'Webhook events went to the dead letters',
        description:
          'A handler failed an event on every attempt (WEBHOOK_JOB_ATTEMPTS) or threw an unrecoverable error; the event waits in the failed set.',
        runbook:
          'List them: kubectl exec deploy/webhook-worker -- node dist/dead-letters.js list. Read the worker logs for the handler\'s error by webhookId, fix the handler or its dependency, then replay: node dist/dead-letters.js replay <webhookId> (or --all). See deploy/README.md, "Dead letters".',
      },
      {
        alert: 'PfWebhookQueueOldestWaiting',
        expr: 'max(pf_webhook_queue_oldest_waiting_age_seconds) > 300',
        for: '5m',
        severity: 'warning',
        summary: 'Webhook events wait more than 5 minutes for a worker',
        description:
          'The oldest waiting job is older than 5 minutes: workers are down, too few, or their handlers too slow.',
        runbook:
          'Check that webhook-worker pods run and are ready (kubectl get pods -l app.kubernetes.io/name=webhook-worker). Compare the queue depth and the worker throughput on the webhooks dashboard; scale the worker Deployment or raise WORKER_CONCURRENCY when handlers wait on I/O; look for slow handlers in pf_webhook_handler_duration_seconds.',
      },
      {
        alert: 'PfWebhookWorkerFailures',
        expr: 'sum by (event) (rate(pf_webhook_jobs_total{outcome=~"retry|dead_letter"}[10m]))\n/\nsum by (event) (rate(pf_webhook_jobs_total[10m])) > 0.1',
        for: '10m',
        severity: 'warning',
        summary: 'More than 10% of {{ $labels.event }} jobs fail',
        description: 'The handler of {{ $labels.event }} throws on more than 10% of its attempts.',
        runbook:
          "Read the worker logs for the handler's errors on {{ $labels.event }}: usually a dependency of the handler (a database, an API) is failing. Retries are automatic; events that run out of attempts go to the dead letters and can be replayed once it is fixed.",
      },
      {
        alert: 'PfWebhookQuarantined',
        expr: 'sum by (reason) (increase(pf_webhooks_quarantined_total[15m])) > 0',
        severity: 'info',
        summary: 'Verified webhook events were quarantined ({{ $labels.reason }})',
        description:
          'Events were answered 200 but kept from the handlers because of {{ $labels.reason }} (invalid_data: a schema the platform outgrew or an unknown kind; stale or future: a clock off, or old deliveries replayed).',
        runbook:
          'List them with node dist/dead-letters.js list on the worker; for invalid_data compare the event with the schemas, for stale/future check the clocks (NTP) and WEBHOOK_MAX_AGE_SECONDS. Replay what should be handled: node dist/dead-letters.js replay <webhookId>.',
      },
      {
        alert: 'PfWebhookSignatureRejections',
        expr: 'sum(increase(pf_webhooks_rejected_total{reason="signature"}[10m])) > 20',
        severity: 'warning',
        summary: 'Many webhook deliveries fail the signature check',
        description:
          'More than 20 requests in 10 minutes were refused with 401: a wrong or rotated secret, or someone probing the endpoint.',
        runbook:
          'Compare PF_WEBHOOK_SECRET with the developer portal; during a rotation set PF_WEBHOOK_SECRET=new,old (deploy/README.md, "Rotating secrets"). If the secret is right, the requests are not the platform\'s: check their source addresses at the Ingress.',
      },
    ],
  },
  {
    name: 'pf-provider',
    rules: [
      {
        alert: 'PfProviderListRefreshFailed',
        expr: 'sum(increase(pf_provider_list_refreshes_total{outcome="failed"}[30m])) > 0',
        severity: 'warning',
        summary: 'A sanctions list refresh failed; the previous lists stay in use',
        description:
          'A scheduled (SANCTIONS_REFRESH_INTERVAL) or SIGHUP refresh could not load every source; screening continues on the lists loaded before.',
        runbook:
          'Read the provider log line "sanctions lists refresh failed" for the source and the reason (download refused, timeout, malformed file). Fix the source or SANCTIONS_SOURCES, then send SIGHUP to the provider pods (or wait for the next refresh). GET /api/lists shows lastRefresh.',
      },
      {
        alert: 'PfProviderListStale',
        expr: 'max by (list) (pf_provider_list_age_seconds) > 93600',
        severity: 'critical',
        summary: 'The sanctions list {{ $labels.list }} is more than 26 hours old',
        description:
          'Screening answers are computed on {{ $labels.list }} as loaded more than 26 hours ago: refreshes fail, or SANCTIONS_REFRESH_INTERVAL is off or longer than a day.',
        runbook:
          'Check for PfProviderListRefreshFailed and the provider logs. With a refresh interval longer than a day, raise this threshold to match it. A pod that restarted loads fresh lists at start, so restarting is a stopgap when the sources answer.',
      },
      {
        alert: 'PfProviderQueriesFailing',
        expr: 'sum by (endpoint) (rate(pf_provider_queries_total{status="failed"}[10m]))\n/\nsum by (endpoint) (rate(pf_provider_queries_total[10m])) > 0.05',
        for: '10m',
        severity: 'warning',
        summary: 'More than 5% of {{ $labels.endpoint }} queries fail',
        description:
          'Results of {{ $labels.endpoint }} queries could not be delivered: the S3 bucket or the webhook target refuses or times out.',
        runbook:
          "Read the provider logs for the failed queries (queryId, mechanism, reason). For S3: credentials, bucket policy, S3_ALLOWED_BUCKETS. For webhook delivery: the target's answers, OUTBOUND_TIMEOUT_MS, OUTBOUND_ALLOWED_PORTS. The platform sees the failure through the callback.",
      },
      {
        alert: 'PfProviderCallbacksFailing',
        expr: 'sum(rate(pf_provider_callbacks_total{outcome="failed"}[10m]))\n/\nsum(rate(pf_provider_callbacks_total[10m])) > 0.05',
        for: '10m',
        severity: 'warning',
        summary: 'More than 5% of status callbacks to the platform fail',
        description: "The platform's callback URL does not accept the provider's signed callbacks.",
        runbook:
          'Check egress from the provider pods to the platform (network policies, proxies), and the log lines of the failed callbacks for the status the platform answered; a 401 means PF_API_KEY does not match what the platform holds.',
      },
    ],
  },
  {
    name: 'pf-exchange',
    rules: [
      {
        alert: 'PfExchangeIdpErrors',
        expr: 'sum(rate(pf_exchange_total{outcome=~"idp_error|idp_unavailable"}[5m]))\n/\nsum(rate(pf_exchange_total[5m])) > 0.05',
        for: '5m',
        severity: 'critical',
        summary: 'More than 5% of token exchanges fail at the identity provider',
        description:
          'Users cannot sign in: the identity provider is down, rate limiting, or refusing the exchange.',
        runbook:
          'See pf_exchange_idp_errors_total by code and status on the exchange dashboard: status none or ERR_IDP_UNAVAILABLE means unreachable (network, IDP_TIMEOUT_MS), 429 rate limits, 401/403 a client secret or admin role gone, 400 a realm setting (the exchange logs say which).',
      },
      {
        alert: 'PfExchangeSlow',
        expr: 'histogram_quantile(0.99, sum by (le) (rate(pf_exchange_duration_seconds_bucket[5m]))) > 2',
        for: '10m',
        severity: 'warning',
        summary: 'Token exchanges take more than 2 seconds at the 99th percentile',
        description:
          'Sign-ins are slow: the identity provider answers slowly, or most exchanges take the full (cold) path.',
        runbook:
          "Compare the warm and cold paths on the exchange dashboard: many cold exchanges after a rollout are expected (the warm cache is per pod); otherwise check the identity provider's latency and the exchange's retries in its logs.",
      },
      {
        alert: 'PfExchangeAdoptionRefusals',
        expr: 'sum(increase(pf_exchange_total{outcome="account_conflict"}[1h])) > 5',
        severity: 'info',
        summary: 'Exchanges are refused because an existing account may not be adopted',
        description:
          'More than 5 sign-ins in an hour answered 409 account_conflict: their email belongs to an identity-provider account that ACCOUNT_ADOPTION does not allow taking over.',
        runbook:
          'Read the exchange logs for the refusals (the reason, never the email). Decide per account: link it by hand, or change ACCOUNT_ADOPTION (services/auth-exchange/README.md).',
      },
    ],
  },
]
