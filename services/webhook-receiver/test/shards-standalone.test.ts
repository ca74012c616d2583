import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createWebhookEvent } from '@pf/testkit/platform'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import type { HandlerContext, WebhookEvent } from '@pf/schemas'
import { checkQueueLayout, QueueLayoutError, type EventConsumer } from '../src/queue'
import { layoutKey } from '../src/queue/shards/claim-queue-layout'
import { shardOf } from '../src/queue/shards/shard-of'
import { shardPrefixes } from '../src/queue/shards/shard-prefixes'
import { createWebhookWorker } from '../src/worker/create-webhook-worker'
import { listDeadLetters } from '../src/worker/dead-letters'
import {
  postSigned,
  receiverDefaults,
  SECRET,
  startReceiver,
  uniquePrefix,
  urlTarget,
  waitFor,
  workerConnection,
  workerDefaults,
  type StartedReceiver,
} from './support'

// QUEUE_SHARDS=3 on one private Redis (issue 38): dedup exact, per-session ordering, a start with another N
// refused, and the resharding procedure. The Cluster (shards on several masters, a failover) is in
// shards-cluster.test.ts.
const dist = join(__dirname, '..', 'dist')
let redis: RedisHandle
let client: ReturnType<typeof workerConnection>
const receivers: StartedReceiver[] = []
const workers: { worker: EventConsumer; connection: ReturnType<typeof workerConnection> }[] = []
const TTL = receiverDefaults.dedupTtlSeconds

beforeAll(async () => {
  if (!existsSync(join(dist, 'main.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
  client = workerConnection(redis.url)
})
afterEach(async () => {
  for (const { worker, connection } of workers.splice(0)) {
    await worker.close()
    connection.disconnect()
  }
  for (const receiver of receivers.splice(0)) await receiver.stop()
})
afterAll(async () => {
  client.disconnect()
  await redis.stop()
})

const receiverOn = async (prefix: string, options: Parameters<typeof startReceiver>[2] = {}) => {
  const receiver = await startReceiver(redis.url, prefix, options)
  receivers.push(receiver)
  return receiver
}

type Handler = (event: WebhookEvent<'purchase.completed'>, context: HandlerContext) => Promise<void>

function startWorker(
  prefix: string,
  handle: Handler,
  options: { shards?: number; reshardFrom?: number } = {},
) {
  const connection = workerConnection(redis.url)
  connection.on('error', () => {})
  const worker = createWebhookWorker({
    ...workerDefaults,
    concurrency: 6,
    connection,
    prefix,
    ordering: 'session',
    ...options,
    handlers: { 'purchase.completed': handle },
  })
  worker.on('error', () => {})
  workers.push({ worker, connection })
}

const base = Date.now() - 60_000
/** A purchase.completed of `session` signed `second`s past the base time. */
const purchase = (session: string, second = 0) =>
  createWebhookEvent('purchase.completed', {
    data: { sessionId: session },
    webhookId: `wh_${randomUUID()}`,
    timestamp: new Date(base + second * 1000).toISOString(),
  })

async function send(url: string, ...events: object[]) {
  const answers = await Promise.all(events.map((event) => postSigned(url, JSON.stringify(event))))
  expect(answers.map((res) => res.status)).toEqual(events.map(() => 200))
}

const exists = async (key: string) => (await client.exists(key)) === 1
const waiting = async (receiver: StartedReceiver) =>
  (await Promise.all(receiver.queues.map((queue) => queue.getWaitingCount()))).reduce((a, b) => a + b, 0)

describe('QUEUE_SHARDS=3 on one Redis: events spread by session over three queues (issue 38)', () => {
  it('accepts each webhookId once, its job and dedup marker in its session’s shard, redeliveries and quarantined events included', async () => {
    const prefix = uniquePrefix()
    const receiver = await receiverOn(prefix, { shards: 3 })
    const prefixes = shardPrefixes(prefix, 3)
    const events = Array.from({ length: 36 }, (_, i) => purchase(`sess_${i % 12}`, i))
    await send(receiver.webhookUrl, ...events)
    // Every redelivery at once, twice: all duplicates.
    await send(receiver.webhookUrl, ...events, ...events)

    expect(await waiting(receiver)).toBe(events.length)
    expect((await receiver.store.counts()).waiting).toBe(events.length)
    for (const queue of receiver.queues) expect(await queue.getWaitingCount()).toBeGreaterThan(0)
    for (const event of events) {
      const home = shardOf(event, 3)
      for (const [index, shard] of prefixes.entries())
        expect(await exists(`${shard}:webhooks:de:${event.webhookId}`)).toBe(index === home)
    }
    // Nothing under the unsharded queue's keys.
    expect(await client.keys(`${prefix}:webhooks:*`)).toEqual([])

    // A stale event is quarantined once, in its session's shard, and its redelivery is a duplicate.
    const stale = {
      ...purchase('sess_stale'),
      timestamp: new Date(Date.now() - 8 * 86_400_000).toISOString(),
    }
    await send(receiver.webhookUrl, stale, stale)
    const letters = await listDeadLetters(receiver.queues)
    expect(letters.map((letter) => [letter.webhookId, letter.reason])).toEqual([[stale.webhookId, 'stale']])
    expect(await exists(`${prefixes[shardOf(stale, 3)]}:webhooks:de:${stale.webhookId}`)).toBe(true)
  })

  it('shows every shard: bull-board lists the three queues, pf-dead-letters lists and shows the dead letters of all of them', async () => {
    const prefix = uniquePrefix()
    const token = 'dashboard-token-0123456789'
    const receiver = await receiverOn(prefix, { shards: 3, dashboardToken: token })
    const authorization = `Basic ${Buffer.from(`ops:${token}`).toString('base64')}`
    const api = await fetch(`${receiver.url}/admin/queues/api/queues`, { headers: { authorization } })
    const names = ((await api.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name)
    expect(names.sort()).toEqual(['shard0-webhooks', 'shard1-webhooks', 'shard2-webhooks'])

    // A stale event per shard, quarantined there; the command finds each (the layout recorded first).
    await checkQueueLayout(urlTarget(redis.url), { prefix, shards: 3, dedupTtlSeconds: TTL })
    const old = new Date(Date.now() - 8 * 86_400_000).toISOString()
    const stale = [0, 1, 2].map((shard) => {
      for (let i = 0; ; i += 1) {
        const event = { ...purchase(`sess_dl_${shard}_${i}`), timestamp: old }
        if (shardOf(event, 3) === shard) return event
      }
    })
    await send(receiver.webhookUrl, ...stale)
    const command = (args: string[], shards: string) =>
      spawnSync(process.execPath, [join(dist, 'dead-letters.js'), ...args], {
        env: {
          PATH: process.env.PATH,
          REDIS_URL: redis.url,
          WEBHOOK_QUEUE_PREFIX: prefix,
          QUEUE_SHARDS: shards,
        },
        encoding: 'utf8',
        timeout: 30_000,
      })
    const listed = command(['list', '--json'], '3')
    expect(listed.status).toBe(0)
    const ids = (JSON.parse(listed.stdout) as { webhookId: string }[]).map((letter) => letter.webhookId)
    expect(ids.sort()).toEqual(stale.map((event) => event.webhookId).sort())
    expect(command(['show', stale[2]!.webhookId], '3').stdout).toContain(stale[2]!.webhookId)
    const refused = command(['list'], '1')
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/QUEUE_SHARDS=1 but Redis records 3 shard\(s\)/)
  })

  it('hands each session’s events in timestamp order with WEBHOOK_ORDERING=session, never two at once, sessions in parallel', async () => {
    const prefix = uniquePrefix()
    const receiver = await receiverOn(prefix, { shards: 3, ordering: 'session' })
    const sessions = Array.from({ length: 6 }, (_, i) => `sess_order_${i}`)
    const events = sessions.flatMap((session) => [1, 2, 3, 4, 5].map((second) => purchase(session, second)))
    // One at a time, shuffled: a session's later events often arrive first.
    for (const event of events.map((e) => ({ e, key: Math.random() })).sort((a, b) => a.key - b.key))
      await send(receiver.webhookUrl, event.e)

    const seen = new Map<string, string[]>()
    const running = new Map<string, number>()
    let overlaps = 0
    let handled = 0
    const shardsUsed = new Set(sessions.map((session) => shardOf({ data: { sessionId: session } }, 3)))
    startWorker(
      prefix,
      async (event, { late }) => {
        const session = event.data.sessionId
        running.set(session, (running.get(session) ?? 0) + 1)
        if (running.get(session)! > 1) overlaps += 1
        seen.set(session, [...(seen.get(session) ?? []), event.webhookId])
        expect(late).toBe(false)
        await new Promise((resolve) => setTimeout(resolve, 10))
        running.set(session, running.get(session)! - 1)
        handled += 1
      },
      { shards: 3 },
    )
    await waitFor(() => handled === events.length, 30_000, 'every event handled')
    for (const session of sessions)
      expect(seen.get(session)).toEqual(
        events.filter((e) => e.data.sessionId === session).map((e) => e.webhookId), // sent in timestamp order
      )
    expect(overlaps).toBe(0)
    expect(shardsUsed.size).toBeGreaterThan(1)
  })

  it('refuses a start with another QUEUE_SHARDS, naming both numbers: the built receiver and worker exit 1', async () => {
    const prefix = uniquePrefix()
    const claim = { prefix, dedupTtlSeconds: TTL }
    expect(await checkQueueLayout(urlTarget(redis.url), { ...claim, shards: 3 })).toEqual({ shards: 3 })
    expect(await checkQueueLayout(urlTarget(redis.url), { ...claim, shards: 3 })).toEqual({ shards: 3 })
    const refused = checkQueueLayout(urlTarget(redis.url), { ...claim, shards: 2 })
    await expect(refused).rejects.toBeInstanceOf(QueueLayoutError)
    await expect(refused).rejects.toThrow(
      /^QUEUE_SHARDS=2 but Redis records 3 shard\(s\) for this queue .*every process with QUEUE_SHARDS=2 QUEUE_RESHARD_FROM=3\.$/,
    )

    const env = { PATH: process.env.PATH, PORT: '0', REDIS_URL: redis.url, WEBHOOK_QUEUE_PREFIX: prefix }
    for (const [entry, name] of [
      ['main.js', 'webhook-receiver'],
      ['worker.js', 'webhook-worker'],
    ] as const) {
      const result = spawnSync(process.execPath, [join(dist, entry)], {
        env: { ...env, PF_WEBHOOK_SECRET: SECRET },
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(
        new RegExp(
          `^${name}: failed to start: QUEUE_SHARDS=1 but Redis records 3 shard\\(s\\) for this queue`,
        ),
      )
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  it('counts an unsharded queue with jobs and no record as 1 shard (a queue older than the record)', async () => {
    const prefix = uniquePrefix()
    const receiver = await receiverOn(prefix)
    await send(receiver.webhookUrl, purchase('sess_old'))
    expect(await exists(layoutKey(prefix))).toBe(false)
    await expect(
      checkQueueLayout(urlTarget(redis.url), { prefix, shards: 3, dedupTtlSeconds: TTL }),
    ).rejects.toThrow(/^QUEUE_SHARDS=3 but Redis records 1 shard\(s\)/)
  })

  it('reshards from 1 to 3: the old markers still deduplicate, the old queue is drained, and the record is updated once the TTL has passed', async () => {
    const prefix = uniquePrefix()
    const target = urlTarget(redis.url)
    const claim = { prefix, dedupTtlSeconds: TTL }
    await checkQueueLayout(target, { ...claim, shards: 1 })
    const before = await receiverOn(prefix)
    const old = [purchase('sess_r1', 1), purchase('sess_r2', 1)]
    await send(before.webhookUrl, ...old)
    await before.stop()
    receivers.splice(receivers.indexOf(before), 1)

    const now = Date.now()
    const layout = await checkQueueLayout(target, { ...claim, shards: 3, reshardFrom: 1, now })
    expect(layout).toEqual({ shards: 3, resharding: { from: 1, until: now + TTL * 1000 } })
    // Every process needs QUEUE_RESHARD_FROM while it runs.
    await expect(checkQueueLayout(target, { ...claim, shards: 3 })).rejects.toThrow(
      /a resharding from 1 to 3 shards runs until .*every process needs QUEUE_RESHARD_FROM=1/,
    )
    await expect(checkQueueLayout(target, { ...claim, shards: 4, reshardFrom: 3 })).rejects.toThrow(
      /^QUEUE_SHARDS=4 but Redis records 3 shard\(s\).*Start with QUEUE_SHARDS=3 QUEUE_RESHARD_FROM=1 until it has ended/,
    )

    const after = await receiverOn(prefix, { shards: 3, reshardFrom: 1, ordering: 'session' })
    // The platform's retries of what the old layout accepted are duplicates; new events go to the shards.
    await send(after.webhookUrl, ...old)
    const fresh = [purchase('sess_r1', 2), purchase('sess_r3', 2)]
    await send(after.webhookUrl, ...fresh)
    expect(await waiting(after)).toBe(fresh.length)
    expect(await client.llen(`${prefix}:webhooks:wait`)).toBe(old.length)

    // A worker of the resharding drains both layouts.
    const handled: string[] = []
    startWorker(prefix, async (event) => void handled.push(event.webhookId), { shards: 3, reshardFrom: 1 })
    await waitFor(() => handled.length === 4, 20_000, 'old and new events handled')
    expect(handled.sort()).toEqual([...old, ...fresh].map((e) => e.webhookId).sort())

    // Past the TTL, the next start drops the resharding from the record; QUEUE_RESHARD_FROM is no longer needed.
    const later = now + TTL * 1000 + 1
    expect(await checkQueueLayout(target, { ...claim, shards: 3, now: later })).toEqual({ shards: 3 })
    expect(await client.hgetall(layoutKey(prefix))).toEqual({ shards: '3' })
  })
})
