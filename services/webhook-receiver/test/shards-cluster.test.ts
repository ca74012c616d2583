import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { redisCommand, startRedisCluster, type RedisClusterHandle } from '@pf/testkit/redis'
import { keySlot } from '../src/queue/shards/key-slot'
import { shardOf } from '../src/queue/shards/shard-of'
import { shardPrefixes } from '../src/queue/shards/shard-prefixes'
import { retryRefused, startBuilt, waitSayingWhy } from './failover-support'
import { postSigned, SECRET, waitFor } from './support'

// QUEUE_SHARDS=3 on a local Redis Cluster (issue 38): three masters with two replicas each (the replica left
// after a failover still confirms writes, as in redis-ha.test.ts), the built receiver and worker. The master of
// one shard is killed (SIGKILL) while senders post the events of many sessions.
const dist = join(__dirname, '..', 'dist')
jest.setTimeout(180_000)
// Debian's redis-server and redis-cli (with --cluster); without them there is no Cluster to run, and the suite
// is skipped with the reason in its title.
const missing = ['redis-server', 'redis-cli'].filter(
  (binary) => spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0,
)
// (`redis-cli --cluster help` exits 1 even where it works: its text says whether `create` is there.)
if (
  missing.length === 0 &&
  !spawnSync('redis-cli', ['--cluster', 'help'], { encoding: 'utf8' }).stdout.includes('create')
)
  missing.push('redis-cli --cluster')
const describeCluster = missing.length === 0 ? describe : describe.skip
const skipped = missing.length === 0 ? '' : ` (skipped: ${missing.join(', ')} not installed)`

const PREFIX = '{pf}'
const SHARDS = 3
let cluster: RedisClusterHandle
const running: ServiceProcess[] = []

beforeAll(async () => {
  if (missing.length > 0) return
  if (!existsSync(join(dist, 'main.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 2 })
})
afterAll(async () => {
  for (const service of running.splice(0)) await service.stop('SIGKILL')
  await cluster?.stop()
})

const start = (entry: string, env: Record<string, string>, readyMessage: string) =>
  startBuilt(running, entry, env, readyMessage)

/** The master port holding each shard's queue now. */
const shardMasters = () =>
  Promise.all(shardPrefixes(PREFIX, SHARDS).map((prefix) => cluster.masterFor(`${prefix}:webhooks:wait`)))

interface Line {
  phase: 'start' | 'end'
  webhookId: string
  session: string
  at: number
  late: boolean
}

describeCluster(`QUEUE_SHARDS=3 on a Redis Cluster of 3 masters × 2 replicas${skipped}`, () => {
  it('places each shard’s keys in the slot keySlot computes, the three on at least two masters', async () => {
    const port = cluster.addresses[0]!.port
    for (const prefix of shardPrefixes(PREFIX, SHARDS))
      expect(await redisCommand(port, ['CLUSTER', 'KEYSLOT', `${prefix}:webhooks:wait`])).toBe(
        keySlot(`${prefix}:webhooks:wait`),
      )
    expect(new Set(await shardMasters()).size).toBeGreaterThanOrEqual(2)
  })

  it('loses no acknowledged event when a shard’s master fails under load, and each session stays in order through it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-shards-'))
    const log = join(dir, 'handled')
    const handlers = join(dir, 'handlers.cjs')
    // Each run's start and end, a line each (O_APPEND: lines of concurrent handlers never mix).
    writeFileSync(
      handlers,
      `const fs = require('fs')
const line = (fields) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(fields) + '\\n')
exports.handlers = {
  'purchase.completed': async (event, { late }) => {
    const fields = { webhookId: event.webhookId, session: event.data.sessionId, at: Date.parse(event.timestamp), late: Boolean(late) }
    line({ phase: 'start', ...fields })
    await new Promise((resolve) => setTimeout(resolve, 2))
    line({ phase: 'end', ...fields })
  },
}\n`,
    )
    const env = {
      REDIS_CLUSTER_NODES: cluster.addresses.map(({ host, port }) => `${host}:${port}`).join(','),
      PF_WEBHOOK_SECRET: SECRET,
      WEBHOOK_ENQUEUE_TIMEOUT_MS: '1000',
      QUEUE_SHARDS: String(SHARDS),
      WEBHOOK_ORDERING: 'session',
    }
    const receiver = await start('main.js', env, 'webhook receiver listening')
    await start(
      'worker.js',
      { ...env, WEBHOOK_HANDLERS: handlers, WORKER_CONCURRENCY: '6' },
      'webhook worker running',
    )
    const url = `${receiver.readyLine.url as string}/webhooks/pf`

    const victimShard = 0
    const acknowledged = new Set<string>()
    const refused: string[] = []
    const statuses = new Map<number, number>()
    let killed = false
    let victimAcknowledgedAfter = 0
    let stop = false
    const base = Date.now() - 60_000
    // Eight senders, each with four sessions of its own whose events it signs in increasing time, one after
    // another; a refused one is retried at the end, after later ones: a late event, as the platform's retry is.
    const sender = async (k: number) => {
      for (let n = 0; !stop; n += 1) {
        const session = `sess_${k}_${n % 4}`
        const event = createWebhookEvent('purchase.completed', {
          data: { sessionId: session },
          webhookId: `wh_${randomUUID()}`,
          timestamp: new Date(base + n * 10).toISOString(),
        })
        const status = await postSigned(url, JSON.stringify(event)).then(
          (res) => res.status,
          () => 0,
        )
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        if (status !== 200) refused.push(JSON.stringify(event))
        else {
          acknowledged.add(event.webhookId)
          if (killed && shardOf(event, SHARDS) === victimShard) victimAcknowledgedAfter += 1
        }
      }
    }
    const senders = Array.from({ length: 8 }, (_, k) => sender(k))
    await waitFor(() => acknowledged.size >= 200, 30_000, 'acknowledgements before the failure')
    const victimPort = (await shardMasters())[victimShard]!
    await cluster.nodes.find((node) => node.port === victimPort)!.stop('SIGKILL')
    killed = true
    await waitSayingWhy(
      receiver,
      () => victimAcknowledgedAfter >= 30,
      60_000,
      'the failed shard’s acknowledgements after',
    )
    stop = true
    await Promise.all(senders)
    await retryRefused(url, refused, acknowledged)
    expect([...statuses.keys()].sort()).toEqual(refused.length > 0 ? [200, 503] : [200])

    const lines = () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((text) => JSON.parse(text) as Line)
        : []
    await waitFor(
      () => {
        const handled = new Set(lines().map((line) => line.webhookId))
        return [...acknowledged].every((id) => handled.has(id))
      },
      90_000,
      'the worker to handle every acknowledged event',
    )

    // Per session: never two events at once; those not late in increasing signed time; a late one older than
    // one handed on before it.
    const bySession = new Map<string, Line[]>()
    for (const line of lines()) bySession.set(line.session, [...(bySession.get(line.session) ?? []), line])
    let overlaps = 0
    let outOfOrder = 0
    let lateWrongly = 0
    for (const sessionLines of bySession.values()) {
      let runningNow = 0
      let newest = -Infinity
      const started = new Set<string>()
      for (const line of sessionLines) {
        if (line.phase === 'end') {
          runningNow -= 1
          continue
        }
        runningNow += 1
        if (runningNow > 1) overlaps += 1
        // A second run of one event (at least once) is neither in nor out of order.
        if (started.has(line.webhookId)) continue
        started.add(line.webhookId)
        if (line.late) lateWrongly += line.at < newest ? 0 : 1
        else if (line.at <= newest) outOfOrder += 1
        newest = Math.max(newest, line.at)
      }
    }
    expect({ overlaps, outOfOrder, lateWrongly }).toEqual({ overlaps: 0, outOfOrder: 0, lateWrongly: 0 })
    if (process.env.PF_HA_REPORT)
      process.stderr.write(
        `shards: ${acknowledged.size} acknowledged, ${refused.length} refused (503) during the failover, ${lines().filter((line) => line.phase === 'start' && line.late).length} handed on late, ${bySession.size} sessions, masters ${new Set(await shardMasters()).size}\n`,
      )
    expect(receiver.child.exitCode).toBeNull()
  })
})
