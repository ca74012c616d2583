import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import { startRedis } from '@pf/testkit/redis'
import { ALERT_GROUPS } from '../deploy/monitoring/src/alert-rules'
import { DASHBOARDS } from '../deploy/monitoring/src/dashboards/dashboards'
import { exposedMetricNames, promqlMetricNames } from '../deploy/monitoring/src/promql-metric-names'
import { startSandbox } from '../scripts/sandbox/start-sandbox'

// Issue 26: every metric a dashboard or an alert names exists in the /metrics of the built processes (the
// sandbox's: provider, receiver, worker, exchange), declared even before anything was counted.
const cleanup = createCleanup(afterAll)
const exposed = new Map<string, Set<string>>()

beforeAll(async () => {
  const redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
  const sandbox = cleanup.add(
    await startSandbox({
      ports: 'ephemeral',
      idp: ['realm'],
      redisUrl: redis.url,
      dataDir: mkdtempSync(join(tmpdir(), 'pf-monitoring-')),
      queuePrefix: '{monitoring}',
    }),
    (s) => s.stop(),
  )
  const { provider, receiver, worker, exchanges } = sandbox.urls
  for (const [name, url] of Object.entries({ provider, receiver, worker, exchange: exchanges.realm! })) {
    const res = await fetch(`${url}/metrics`)
    expect([name, res.status]).toEqual([name, 200])
    exposed.set(name, exposedMetricNames(await res.text()))
  }
})

const expressions = [
  ...ALERT_GROUPS.flatMap((g) => g.rules.map((r) => [`alert ${r.alert}`, r.expr] as const)),
  ...DASHBOARDS.flatMap((d) =>
    d.rows.flatMap((row) =>
      row.panels.flatMap((p) =>
        p.queries.map((q) => [`${d.uid}: ${p.title}${q.legend ? ` (${q.legend})` : ''}`, q.expr] as const),
      ),
    ),
  ),
]

// Which process serves a metric, by its name (the worker's job metrics share the receiver's pf_webhook_ prefix).
const OWNERS: [RegExp, string][] = [
  [/^pf_provider_/, 'provider'],
  [/^pf_exchange_/, 'exchange'],
  [/^(pf_worker_|pf_webhook_jobs_|pf_webhook_handler_)/, 'worker'],
  [/^(pf_receiver_|pf_webhooks_|pf_webhook_)/, 'receiver'],
]
const ownerOf = (name: string) => OWNERS.find(([pattern]) => pattern.test(name))?.[1] ?? '(none)'

describe('the metrics the dashboards and alerts name', () => {
  it('every process exposes metrics of its own', () => {
    expect([...exposed.keys()].sort()).toEqual(['exchange', 'provider', 'receiver', 'worker'])
    for (const [name, names] of exposed) expect([name, names.size > 10]).toEqual([name, true])
  })

  it.each(expressions)('%s: every metric it reads is in its process’s /metrics', (_where, expr) => {
    const names = promqlMetricNames(expr)
    expect(names.length).toBeGreaterThan(0)
    const missing = names.filter((name) => !exposed.get(ownerOf(name))?.has(name))
    expect(missing.map((name) => `${name} (${ownerOf(name)})`)).toEqual([])
  })
})
