import { stringify } from 'yaml'
import { formatWithPrettier } from '../../../scripts/format-with-prettier'
import { ALERT_GROUPS, type AlertRule } from './alert-rules'
import { ALERT_TESTS } from './alert-tests'
import { DASHBOARDS } from './dashboards/dashboards'
import { grafanaDashboard } from './grafana-dashboard'

/** Where each generated file goes, relative to the repository root. */
export const MONITORING_FILES = {
  rules: 'deploy/monitoring/prometheus/pf-alerts.rules.yml',
  ruleTests: 'deploy/monitoring/prometheus/pf-alerts.test.yml',
  prometheusRule: 'deploy/k8s/monitoring/prometheus-rule.yaml',
  dashboard: (uid: string) => `deploy/monitoring/grafana/${uid}.json`,
}

const HEADER =
  '# Generated from deploy/monitoring/src by `pnpm monitoring`: edit the source, not this file.\n'

const ruleYaml = (rule: AlertRule) => ({
  alert: rule.alert,
  expr: rule.expr,
  ...(rule.for ? { for: rule.for } : {}),
  labels: { severity: rule.severity },
  annotations: { summary: rule.summary, description: rule.description, runbook: rule.runbook },
})
const groups = () => ALERT_GROUPS.map((group) => ({ name: group.name, rules: group.rules.map(ruleYaml) }))

/** The rule's annotations as Prometheus expands them for an alert with `labels`. */
const expand = (text: string, labels: Record<string, string>) =>
  text.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_m, name: string) => labels[name] ?? '')

function ruleTests() {
  const rules = new Map(ALERT_GROUPS.flatMap((g) => g.rules.map((r) => [r.alert, r] as const)))
  return {
    rule_files: ['pf-alerts.rules.yml'],
    evaluation_interval: '1m',
    tests: ALERT_TESTS.map((test) => ({
      name: test.name,
      interval: '1m',
      input_series: Object.entries(test.series).map(([series, values]) => ({ series, values })),
      alert_rule_test: test.checks.map(({ at, alert, fires }) => {
        const rule = rules.get(alert)
        if (!rule) throw new Error(`alert test "${test.name}" names no rule ${alert}`)
        return {
          eval_time: at,
          alertname: alert,
          exp_alerts: fires.map((labels) => {
            const all = { ...labels, severity: rule.severity }
            const { annotations } = ruleYaml(rule)
            return {
              exp_labels: all,
              exp_annotations: Object.fromEntries(
                Object.entries(annotations).map(([key, text]) => [key, expand(text, all)]),
              ),
            }
          }),
        }
      }),
    })),
  }
}

/** Every generated monitoring file, path (from the repository root) to content, formatted as the repo is. */
export function renderMonitoring(): Map<string, string> {
  const yaml = (value: unknown) => HEADER + stringify(value, { lineWidth: 0 })
  const files = new Map<string, string>([
    [MONITORING_FILES.rules, yaml({ groups: groups() })],
    [MONITORING_FILES.ruleTests, yaml(ruleTests())],
    [
      MONITORING_FILES.prometheusRule,
      yaml({
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: {
          name: 'pf-integration-kit',
          labels: { 'app.kubernetes.io/part-of': 'pf-integration-kit' },
        },
        spec: { groups: groups() },
      }),
    ],
    ...DASHBOARDS.map(
      (spec) =>
        [MONITORING_FILES.dashboard(spec.uid), JSON.stringify(grafanaDashboard(spec), null, 2)] as [
          string,
          string,
        ],
    ),
  ])
  for (const [path, text] of files) files.set(path, formatWithPrettier(path, text))
  return files
}
