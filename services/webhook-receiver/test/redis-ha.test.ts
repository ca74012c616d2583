import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServiceProcess } from '@pf/testkit'
import {
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterHandle,
  type RedisProcess,
  type RedisSentinelHandle,
} from '@pf/testkit/redis'
import { retryRefused, startBuilt, waitSayingWhy } from './failover-support'
import { makeEvent, postSigned, SECRET, waitFor } from './support'

// Redis high availability, with real servers: a Sentinel-managed primary with two replicas, and a Cluster of
// three masters with two replicas each. The master is killed (SIGKILL) while webhooks keep coming; the
// receiver and the worker are the built processes, never restarted.
const running: ServiceProcess[] = []
// A failover takes a few seconds, and each test waits for hundreds of acknowledgements on both sides of it.
jest.setTimeout(180_000)
// Debian's redis-server, redis-sentinel and redis-cli (.ci/run installs them); without them there is nothing
// to fail over, and these tests are skipped with the reason in their title, which the test summary prints.
const missing = ['redis-server', 'redis-sentinel', 'redis-cli'].filter(
  (binary) => spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0,
)
const describeHa = missing.length === 0 ? describe : describe.skip
const skipped = missing.length === 0 ? '' : ` (skipped: ${missing.join(', ')} not installed)`
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop('SIGKILL')
})

interface Deployment {
  env: Record<string, string>
  /** The data node that is master for the queue's keys now. */
  master(): Promise<RedisProcess>
  stop(): Promise<void>
}

async function sentinel(): Promise<Deployment> {
  const ha: RedisSentinelHandle = await startRedisSentinel({ replicas: 2 })
  return {
    env: {
      REDIS_SENTINELS: ha.sentinels.map(({ host, port }) => `${host}:${port}`).join(','),
      REDIS_SENTINEL_NAME: ha.name,
    },
    master: async () => {
      const port = await ha.primaryPort()
      return ha.nodes.find((node) => node.port === port)!
    },
    stop: () => ha.stop(),
  }
}

async function cluster(): Promise<Deployment> {
  const ha: RedisClusterHandle = await startRedisCluster({ masters: 3, replicasPerMaster: 2 })
  return {
    env: { REDIS_CLUSTER_NODES: ha.addresses.map(({ host, port }) => `${host}:${port}`).join(',') },
    master: async () => {
      const port = await ha.masterFor('{pf}')
      return ha.nodes.find((node) => node.port === port)!
    },
    stop: () => ha.stop(),
  }
}

const start = (entry: string, env: Record<string, string>, readyMessage: string) =>
  startBuilt(running, entry, env, readyMessage)

describeHa.each([
  ['Sentinel', sentinel],
  ['Cluster', cluster],
])(`Redis %s: the master fails under load${skipped}`, (_mode, deploy) => {
  it('loses no acknowledged event, answers 503 (never 2xx) while no master takes writes, and recovers without a restart', async () => {
    const redis = await deploy()
    const dir = mkdtempSync(join(tmpdir(), 'pf-ha-'))
    const handlers = join(dir, 'handlers.cjs')
    writeFileSync(
      handlers,
      `const fs = require('fs')
const record = async (event) => fs.appendFileSync(${JSON.stringify(join(dir, 'handled'))}, event.webhookId + '\\n')
exports.handlers = { 'session.created': record }\n`,
    )
    try {
      const env = { ...redis.env, PF_WEBHOOK_SECRET: SECRET, WEBHOOK_ENQUEUE_TIMEOUT_MS: '1000' }
      const receiver = await start('main.js', env, 'webhook receiver listening')
      await start('worker.js', { ...env, WEBHOOK_HANDLERS: handlers }, 'webhook worker running')
      const url = `${receiver.readyLine.url as string}/webhooks/pf`

      const acknowledged = new Set<string>()
      const refused: string[] = []
      const statuses = new Map<number, number>()
      let killed = false
      let killedAt = 0
      let firstAfter = 0
      let acknowledgedAfterFailover = 0
      let stop = false
      // Ten senders, each posting new events one after another, like a busy platform.
      const sender = async () => {
        while (!stop) {
          const event = makeEvent('session.created')
          const status = await postSigned(url, JSON.stringify(event)).then(
            (res) => res.status,
            () => 0,
          )
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status === 200) {
            acknowledged.add(event.webhookId as string)
            if (killed) acknowledgedAfterFailover += 1
            if (killed && firstAfter === 0 && performance.now() - killedAt > 0) firstAfter = performance.now()
          } else refused.push(JSON.stringify(event))
        }
      }
      const senders = Array.from({ length: 10 }, sender)
      await waitFor(() => acknowledged.size >= 200, 20_000, 'acknowledgements before the failure')
      const master = await redis.master()
      await master.stop('SIGKILL')
      killed = true
      killedAt = performance.now()
      await waitSayingWhy(
        receiver,
        () => acknowledgedAfterFailover >= 200,
        60_000,
        'acknowledgements after the failover',
      )
      stop = true
      await Promise.all(senders)

      await retryRefused(url, refused, acknowledged)

      // Only 200 and 503 were ever answered, and there was an outage to answer 503 for.
      expect([...statuses.keys()].sort()).toEqual(refused.length > 0 ? [200, 503] : [200])
      // Every acknowledged event reaches the handler: nothing acknowledged was lost with the old master.
      const handled = () =>
        new Set(
          existsSync(join(dir, 'handled')) ? readFileSync(join(dir, 'handled'), 'utf8').split('\n') : [],
        )
      await waitFor(
        () => [...acknowledged].every((id) => handled().has(id)),
        60_000,
        'the worker to handle every acknowledged event',
      )
      expect(receiver.child.exitCode).toBeNull()
      if (process.env.PF_HA_REPORT)
        process.stderr.write(
          `${_mode}: ${acknowledged.size} acknowledged, ${refused.length} refused (503) during the failover, first 200 after the kill: ${Math.round(firstAfter - killedAt)} ms\n`,
        )
    } finally {
      await redis.stop()
    }
  })
})

/** The receiver's log lines about REDIS_WAIT_REPLICAS (the one that says the topology cannot confirm writes). */
const replicaLines = (service: ServiceProcess) =>
  service.logs.filter((line) => line.setting === 'REDIS_WAIT_REPLICAS' && line.level === 50)

const readyStatus = async (service: ServiceProcess) =>
  (await fetch(`${service.readyLine.url as string}/ready`)).status

describeHa(
  `a topology that cannot confirm writes is said, not discovered one 503 at a time (REDIS_WAIT_REPLICAS=1)${skipped}`,
  () => {
    it('Cluster whose masters have no replica: one line at start naming the setting and both ways out, /ready 503; REDIS_WAIT_REPLICAS=0 is ready', async () => {
      const redis = await startRedisCluster({ masters: 3, replicasPerMaster: 0 })
      try {
        const env = {
          REDIS_CLUSTER_NODES: redis.addresses.map(({ host, port }) => `${host}:${port}`).join(','),
          PF_WEBHOOK_SECRET: SECRET,
        }
        const receiver = await start('main.js', env, 'webhook receiver listening')
        await waitFor(() => replicaLines(receiver).length > 0, 20_000, 'the line about replicas')
        for (let i = 0; i < 3; i += 1) expect(await readyStatus(receiver)).toBe(503)
        const [line, ...more] = replicaLines(receiver)
        expect(more).toEqual([])
        expect(line).toMatchObject({ wanted: 1, online: 0 })
        expect(line!.msg).toMatch(
          /^REDIS_WAIT_REPLICAS=1 but the Redis primary holding the queue has 0 replica/,
        )
        expect(line!.msg).toMatch(/Add replicas to that primary, or set REDIS_WAIT_REPLICAS=0/)

        const relaxed = await start(
          'main.js',
          { ...env, REDIS_WAIT_REPLICAS: '0' },
          'webhook receiver listening',
        )
        await waitFor(async () => (await readyStatus(relaxed)) === 200, 20_000, 'the receiver to be ready')
        const url = `${relaxed.readyLine.url as string}/webhooks/pf`
        expect((await postSigned(url, JSON.stringify(makeEvent('session.created')))).status).toBe(200)
        expect(replicaLines(relaxed)).toEqual([])
      } finally {
        await redis.stop()
      }
    })

    it('Sentinel primary left without a replica by a failover: /ready turns 503, the reason logged once', async () => {
      const redis = await startRedisSentinel({ replicas: 1 })
      try {
        const receiver = await start(
          'main.js',
          {
            REDIS_SENTINELS: redis.sentinels.map(({ host, port }) => `${host}:${port}`).join(','),
            REDIS_SENTINEL_NAME: redis.name,
            PF_WEBHOOK_SECRET: SECRET,
          },
          'webhook receiver listening',
        )
        await waitFor(async () => (await readyStatus(receiver)) === 200, 20_000, 'the receiver to be ready')
        const url = `${receiver.readyLine.url as string}/webhooks/pf`
        expect((await postSigned(url, JSON.stringify(makeEvent('session.created')))).status).toBe(200)
        expect(replicaLines(receiver)).toEqual([])

        await redis.nodes[0]!.stop('SIGKILL')
        await waitFor(
          () => replicaLines(receiver).length > 0,
          30_000,
          'the line about replicas after the failover',
        )
        for (let i = 0; i < 3; i += 1) expect(await readyStatus(receiver)).toBe(503)
        expect(replicaLines(receiver)).toHaveLength(1)
        expect(replicaLines(receiver)[0]).toMatchObject({ wanted: 1, online: 0 })
      } finally {
        await redis.stop()
      }
    })
  },
)
