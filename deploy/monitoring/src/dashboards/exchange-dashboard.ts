import type { DashboardSpec } from '../grafana-dashboard'
import { increase, processPanels, quantiles, rate } from '../promql'

/** The auth exchange: outcomes, latency, the identity provider's errors, adoptions and their refusals. */
export const exchangeDashboard: DashboardSpec = {
  uid: 'pf-exchange',
  title: 'pf-integration-kit / Auth exchange',
  description: 'Marketplace tokens exchanged for identity-provider sessions.',
  rows: [
    {
      title: 'Exchanges',
      panels: [
        {
          title: 'Exchanges by outcome',
          description:
            'warm (grant only), cold (full flow), invalid_token, idp_error, idp_unavailable, account_conflict (an adoption refused).',
          unit: 'reqps',
          queries: [{ expr: rate('pf_exchange_total', 'outcome'), legend: '{{outcome}}' }],
        },
        {
          title: 'Exchange latency by path',
          description: 'Successful exchanges, warm and cold.',
          unit: 's',
          queries: quantiles('pf_exchange_duration_seconds', 'path', [0.5, 0.95, 0.99]),
        },
        {
          title: 'Identity-provider errors by status',
          description:
            'Failures of the identity provider by error code and HTTP status (none: it did not answer).',
          unit: 'reqps',
          queries: [
            { expr: rate('pf_exchange_idp_errors_total', 'code, status'), legend: '{{status}} {{code}}' },
          ],
        },
        {
          title: 'Adoptions and refusals',
          description:
            'Existing accounts adopted, and adoptions refused under ACCOUNT_ADOPTION (409 account_conflict), per hour.',
          unit: 'short',
          queries: [
            { expr: increase('pf_exchange_account_adoptions_total', '1h'), legend: 'adopted' },
            { expr: increase('pf_exchange_total{outcome="account_conflict"}', '1h'), legend: 'refused' },
          ],
        },
      ],
    },
    { title: 'Processes', panels: processPanels([{ name: 'exchange', prefix: 'pf_exchange' }]) },
  ],
}
