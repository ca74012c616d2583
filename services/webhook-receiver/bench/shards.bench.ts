import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { redisCommand, startRedisCluster } from '@pf/testkit/redis'
import { load } from './load'
import { processCpuMs } from './process-cpu'
import { spread } from './stats'

const SECRET = 'whsec_bench_secret'
const service = join(__dirname, '..')
const ROUNDS = 3

/** A fresh, signed session.created of a session of its own: the events spread over the shards. */
function nextEvent() {
  const body = JSON.stringify(
    createWebhookEvent('session.created', { data: { sessionId: `sess_${randomUUID()}` } }),
  )
  return {
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
  }
}

/**
 * 1 shard against 3 on a local Redis Cluster of three masters (no replicas, `REDIS_WAIT_REPLICAS=0`: the
 * masters' work alone), each receiver the built `dist/main.js` on its own prefix, alternating over three rounds
 * of closed-loop load (64 connections): accepted events per second, the receiver's CPU per event, all the
 * masters' CPU per event, and the busiest master's share of it (1 shard: one master does it all; 3: about a
 * third each). A report, no target: on 2 cores the load generator, the receiver and the three masters share
 * the same two cores, so spreading Redis's work over three processes cannot add capacity (README, "Shards").
 */
export async function benchShards(durationSeconds: number) {
  const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 0 }).catch((error: Error) => error)
  if (cluster instanceof Error)
    return [
      { benchmark: '1 shard against 3', metric: '', value: `skipped: ${cluster.message}`, target: 'report' },
    ]
  const masters = cluster.addresses.map(({ port }) => port)
  const redisCpuMs = async (port: number) => {
    const info = String(await redisCommand(port, ['INFO', 'cpu']))
    const seconds = (field: string) => Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1] ?? NaN)
    return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000
  }
  const receivers: ServiceProcess[] = []
  try {
    for (const shards of [1, 3])
      receivers.push(
        await startServiceProcess({
          entry: join(service, 'dist', 'main.js'),
          env: {
            PATH: process.env.PATH,
            PORT: '0',
            LOG_LEVEL: 'info',
            REDIS_CLUSTER_NODES: masters.map((port) => `127.0.0.1:${port}`).join(','),
            REDIS_WAIT_REPLICAS: '0',
            WEBHOOK_QUEUE_PREFIX: `{bench${shards}}`,
            QUEUE_SHARDS: String(shards),
            PF_WEBHOOK_SECRET: SECRET,
          },
          readyMessage: 'webhook receiver listening',
        }),
      )
    const url = (receiver: ServiceProcess) => `${receiver.readyLine.url as string}/webhooks/pf`
    for (const receiver of receivers)
      await load({ url: url(receiver), durationSeconds: 2, connections: 64, nextRequest: nextEvent })
    const results = receivers.map(() => ({
      rate: [] as number[],
      cpu: [] as number[],
      redis: [] as number[],
      busiest: [] as number[],
    }))
    for (let round = 0; round < ROUNDS; round += 1)
      for (const [index, receiver] of receivers.entries()) {
        // Every round from an empty Cluster: a grown key space would slow the next.
        for (const port of masters) await redisCommand(port, ['FLUSHALL'])
        const pid = receiver.child.pid!
        const before = processCpuMs(pid) ?? NaN
        const redisBefore = await Promise.all(masters.map(redisCpuMs))
        const result = await load({
          url: url(receiver),
          durationSeconds,
          connections: 64,
          nextRequest: nextEvent,
        })
        const events = result.requestsPerSecond * durationSeconds
        const redisSpent = (await Promise.all(masters.map(redisCpuMs))).map((ms, i) => ms - redisBefore[i]!)
        const total = redisSpent.reduce((a, b) => a + b, 0)
        const row = results[index]!
        row.rate.push(result.requestsPerSecond)
        row.cpu.push((((processCpuMs(pid) ?? NaN) - before) * 1000) / events)
        row.redis.push((total * 1000) / events)
        row.busiest.push((Math.max(...redisSpent) / total) * 100)
      }
    return [1, 3].flatMap((shards, index) => {
      const row = results[index]!
      const name = `${shards} shard${shards === 1 ? '' : 's'} on a 3-master Cluster`
      return [
        {
          benchmark: `${name}: accepted events/s`,
          metric: 'min / median / max',
          value: spread(row.rate),
          target: 'report',
        },
        {
          benchmark: `${name}: receiver CPU per event`,
          metric: 'µs min / median / max',
          value: spread(row.cpu),
          target: '',
        },
        {
          benchmark: `${name}: Redis CPU per event, all masters`,
          metric: 'µs min / median / max',
          value: spread(row.redis),
          target: '',
        },
        {
          benchmark: `${name}: busiest master's share of Redis CPU`,
          metric: '% min / median / max',
          value: spread(row.busiest),
          target: '',
        },
      ]
    })
  } finally {
    for (const receiver of receivers) await receiver.stop()
    await cluster.stop()
  }
}
