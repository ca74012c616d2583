/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML and JSON are untyped; the assertions check their shape */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule'
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor'
import { Service } from 'kubernetes-models/v1/Service'
import { parse, parseAllDocuments } from 'yaml'
import { ALERT_GROUPS } from '../deploy/monitoring/src/alert-rules'
import { ALERT_TESTS } from '../deploy/monitoring/src/alert-tests'
import { DASHBOARDS } from '../deploy/monitoring/src/dashboards/dashboards'
import { exposedMetricNames, promqlMetricNames } from '../deploy/monitoring/src/promql-metric-names'
import { MONITORING_FILES, renderMonitoring } from '../deploy/monitoring/src/render-monitoring'

// Issue 26, "Dashboards and alerts beside the manifests".
const root = join(__dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const yamlObjects = (path: string) =>
  parseAllDocuments(read(path)).map((d) => d.toJSON() as Record<string, any>)

describe('generated from one source (deploy/monitoring/src, `pnpm monitoring`)', () => {
  it('the committed rules file, PrometheusRule, promtool tests and dashboards are what the source renders', () => {
    const rendered = renderMonitoring()
    expect([...rendered.keys()].sort()).toEqual(
      [
        MONITORING_FILES.rules,
        MONITORING_FILES.ruleTests,
        MONITORING_FILES.prometheusRule,
        ...DASHBOARDS.map((d) => MONITORING_FILES.dashboard(d.uid)),
      ].sort(),
    )
    for (const [path, text] of rendered) expect([path, read(path)]).toEqual([path, text])
  })

  it('the plain rules file and the PrometheusRule hold the same groups', () => {
    const [rule] = yamlObjects(MONITORING_FILES.prometheusRule)
    expect(rule!.spec.groups).toEqual(parse(read(MONITORING_FILES.rules)).groups)
  })

  it('gives every alert a severity and runbook text: summary, description, runbook', () => {
    const rules = (parse(read(MONITORING_FILES.rules)).groups as any[]).flatMap((g) => g.rules)
    expect(rules.length).toBeGreaterThanOrEqual(10)
    for (const rule of rules) {
      expect([rule.alert, rule.labels.severity]).toEqual([
        rule.alert,
        expect.stringMatching(/^(critical|warning|info)$/),
      ])
      for (const key of ['summary', 'description', 'runbook'])
        expect([rule.alert, key, rule.annotations[key]?.length > 20]).toEqual([rule.alert, key, true])
    }
  })

  it('has promtool unit tests for at least the 503-rate, dead-letter and list-refresh alerts, firing and quiet', () => {
    const checked = ALERT_TESTS.flatMap((t) => t.checks)
    for (const alert of [
      'PfWebhookReceiver503Rate',
      'PfWebhookDeadLettersGrowing',
      'PfProviderListRefreshFailed',
      'PfProviderListStale',
    ]) {
      expect([alert, checked.some((c) => c.alert === alert && c.fires.length > 0)]).toEqual([alert, true])
      expect([alert, checked.some((c) => c.alert === alert && c.fires.length === 0)]).toEqual([alert, true])
    }
    const names = new Set(ALERT_GROUPS.flatMap((g) => g.rules.map((r) => r.alert)))
    expect(names.size).toBe(ALERT_GROUPS.flatMap((g) => g.rules).length)
  })
})

// Debian's `prometheus` package ships promtool; .ci/run installs it, so CI never skips these.
const promtool = spawnSync('promtool', ['--version']).status === 0
if (!promtool && process.env.CI === 'true') throw new Error('promtool is missing: apt-get install prometheus')
const withPromtool = promtool ? describe : describe.skip
// Skipped, the title says why (the test summary prints it).
const skipped = promtool ? '' : ' (skipped: promtool not installed, apt-get install prometheus)'

withPromtool(`promtool (Debian package prometheus)${skipped}`, () => {
  const run = (...args: string[]) => {
    const result = spawnSync('promtool', args, {
      cwd: join(root, 'deploy/monitoring/prometheus'),
      encoding: 'utf8',
    })
    return { status: result.status, output: `${result.stdout}${result.stderr}` }
  }

  it('check rules: the rules file is valid', () => {
    const { status, output } = run('check', 'rules', 'pf-alerts.rules.yml')
    expect([status, output]).toEqual([0, expect.stringContaining('SUCCESS')])
  })

  it('test rules: every unit test passes', () => {
    const { status, output } = run('test', 'rules', 'pf-alerts.test.yml')
    expect([status, output]).toEqual([0, expect.stringContaining('SUCCESS')])
  })
})

describe('metric names (the check of test/monitoring-metrics.test.ts)', () => {
  it('reads the metric names of PromQL, not its functions, keywords, labels, strings or durations', () => {
    expect(
      promqlMetricNames(
        'histogram_quantile(0.95, sum by (le, event) (rate(a_bucket{reason=~"x|y", le!="b c"}[5m]))) > 1e3\n' +
          'and on (pod) max without (instance) (b_total offset 5m) / (sum(rate(c[1h])) or vector(0))',
      ),
    ).toEqual(['a_bucket', 'b_total', 'c'])
  })

  it('takes the names /metrics declares, with a histogram’s _bucket, _sum and _count', () => {
    const names = exposedMetricNames(
      '# HELP h_seconds x\n# TYPE h_seconds histogram\n# HELP c_total y\n# TYPE c_total counter\nc_total 1\n',
    )
    expect([...names].sort()).toEqual([
      'c_total',
      'h_seconds',
      'h_seconds_bucket',
      'h_seconds_count',
      'h_seconds_sum',
    ])
  })
})

describe('Grafana dashboards (deploy/monitoring/grafana)', () => {
  const files = readdirSync(join(root, 'deploy/monitoring/grafana'))
  const dashboards = files.map((file) => JSON.parse(read(`deploy/monitoring/grafana/${file}`)) as any)

  it('one per service plus an overview, each with a unique uid and a Prometheus datasource variable', () => {
    expect(dashboards.map((d) => d.uid).sort()).toEqual([
      'pf-exchange',
      'pf-overview',
      'pf-provider',
      'pf-webhooks',
    ])
    for (const dashboard of dashboards) {
      expect(dashboard.templating.list).toContainEqual(
        expect.objectContaining({ name: 'datasource', query: 'prometheus' }),
      )
      const panels = dashboard.panels.filter((p: any) => p.type !== 'row')
      expect(panels.length).toBeGreaterThan(3)
      for (const panel of panels) {
        expect([panel.title, panel.datasource.uid, panel.targets.length > 0]).toEqual([
          panel.title,
          '${datasource}',
          true,
        ])
        expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24)
      }
      expect(new Set(dashboard.panels.map((p: any) => p.id)).size).toBe(dashboard.panels.length)
    }
  })
})

describe('OpenTelemetry Collector and Jaeger in docker-compose.yml', () => {
  it('mounts the collector configuration, whose traces pipeline takes OTLP and exports to Jaeger', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, any> }
    const [mount] = compose.services['otel-collector'].volumes as string[]
    const config = parse(read(mount!.split(':')[0]!)) as any
    expect(config.service.pipelines.traces).toMatchObject({ receivers: ['otlp'], exporters: ['otlp/jaeger'] })
    expect(config.exporters['otlp/jaeger'].endpoint).toBe('jaeger:4317')
    expect(compose.services.jaeger.environment.COLLECTOR_OTLP_ENABLED).toBe('true')
  })
})

describe('Prometheus Operator objects (deploy/k8s/monitoring, a kustomize Component)', () => {
  const dir = 'deploy/k8s/monitoring'
  const kustomization = parse(read(`${dir}/kustomization.yaml`)) as { kind: string; resources: string[] }
  const objects = kustomization.resources.flatMap((file) => yamlObjects(`${dir}/${file}`))
  const models: Record<string, new (data: never) => { validate(): void }> = {
    Service,
    ServiceMonitor,
    PrometheusRule,
  }

  it('is a Component the production overlay lists (in the base namespace), naming every file in its folder', () => {
    expect(kustomization.kind).toBe('Component')
    expect(kustomization.resources.sort()).toEqual(
      readdirSync(join(root, dir))
        .filter((f) => f !== 'kustomization.yaml')
        .sort(),
    )
    const overlay = parse(read('deploy/k8s/overlays/production/kustomization.yaml'))
    expect(overlay.components).toEqual(['../../monitoring'])
    // The Component's objects join at the overlay: they get the base's namespace there, beside the Services.
    expect(overlay.namespace).toBe(parse(read('deploy/k8s/base/kustomization.yaml')).namespace)
  })

  it.each(objects.map((object) => [`${object.kind} ${object.metadata.name}`, object]))(
    '%s is valid against its schema',
    (_name, object) => {
      expect(models[object.kind]).toBeDefined()
      expect(() => new models[object.kind]!(object as never).validate()).not.toThrow()
    },
  )

  it('scrapes every Deployment of the base on its metrics port, through a Service that exposes only that port', () => {
    const base = 'deploy/k8s/base'
    const deployments = readdirSync(join(root, base))
      .filter((f) => f !== 'kustomization.yaml')
      .flatMap((file) => yamlObjects(`${base}/${file}`))
      .filter((o) => o.kind === 'Deployment')
    const monitors = objects.filter((o) => o.kind === 'ServiceMonitor')
    const services = objects.filter((o) => o.kind === 'Service')
    expect(monitors).toHaveLength(deployments.length)
    for (const deployment of deployments) {
      const name = deployment.metadata.name as string
      const port = deployment.spec.template.spec.containers[0].ports.find((p: any) => p.name === 'metrics')
      const monitor = monitors.find((m) => m.spec.selector.matchLabels['app.kubernetes.io/name'] === name)
      expect([name, monitor?.spec.endpoints]).toEqual([
        name,
        [expect.objectContaining({ port: 'metrics', path: '/metrics' })],
      ])
      const selected = services.filter((s) =>
        Object.entries(monitor!.spec.selector.matchLabels).every(([k, v]) => s.metadata.labels[k] === v),
      )
      expect([name, selected.map((s) => s.spec.selector['app.kubernetes.io/name'])]).toEqual([name, [name]])
      expect([name, selected[0]!.spec.ports]).toEqual([
        name,
        [{ name: 'metrics', port: port.containerPort, targetPort: 'metrics' }],
      ])
    }
  })
})
