import type { PanelQuery, PanelSpec } from './grafana-dashboard'

/** `sum by (labels) (rate(metric[5m]))`; no labels: one sum. */
export const rate = (metric: string, by = '', window = '5m') =>
  `sum${by ? ` by (${by})` : ''} (rate(${metric}[${window}]))`

/** The same with `increase` over `window` (counts per hour, say). */
export const increase = (metric: string, window: string, by = '') =>
  `sum${by ? ` by (${by})` : ''} (increase(${metric}[${window}]))`

/** Quantiles of a histogram, each a query with its legend (`p95 {{endpoint}}`). */
export const quantiles = (histogram: string, by = '', qs = [0.5, 0.95, 0.99]): PanelQuery[] =>
  qs.map((q) => ({
    expr: `histogram_quantile(${q}, sum by (le${by ? `, ${by}` : ''}) (rate(${histogram}_bucket[5m])))`,
    legend: `p${Math.round(q * 100)}${by ? ` {{${by}}}` : ''}`,
  }))

/**
 * A sum that is 0 rather than nothing when none of the counters has a series yet (a counter with labels has
 * none until its first count), so that a total made of several stays defined.
 */
export const sumOf = (metrics: string[]) => metrics.map((m) => `(${rate(m)} or vector(0))`).join(' + ')

/** CPU, resident memory and event-loop lag of processes whose default metrics carry `prefix` (per instance). */
export function processPanels(processes: { name: string; prefix: string }[]): PanelSpec[] {
  const each = (suffix: string, expr: (metric: string) => string) =>
    processes.map(({ name, prefix }) => ({
      expr: expr(`${prefix}_${suffix}`),
      legend: `${name} {{instance}}`,
    }))
  return [
    {
      title: 'CPU',
      description: 'CPU seconds per second, per process.',
      unit: 'short',
      width: 8,
      queries: each('process_cpu_seconds_total', (m) => `sum by (instance) (rate(${m}[5m]))`),
    },
    {
      title: 'Resident memory',
      description: 'Resident set size per process (the container limit is in the Deployment).',
      unit: 'bytes',
      width: 8,
      queries: each('process_resident_memory_bytes', (m) => `max by (instance) (${m})`),
    },
    {
      title: 'Event-loop lag p99',
      description: 'A blocked event loop delays every request and job of the process.',
      unit: 's',
      width: 8,
      queries: each('nodejs_eventloop_lag_p99_seconds', (m) => `max by (instance) (${m})`),
    },
  ]
}
