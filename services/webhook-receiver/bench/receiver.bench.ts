import { join } from 'node:path'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { startServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { startRedis } from '@pf/testkit/redis'
import { load } from './load'
import { median } from './median'
import { processCpuMs } from './process-cpu'

const SECRET = 'whsec_bench_secret'
const service = join(__dirname, '..')

/** A fresh, signed session.created per request: every request is a new event, none is a duplicate. */
function nextEvent() {
  const body = JSON.stringify(createWebhookEvent('session.created'))
  return {
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
  }
}

/** Load on one server, with the CPU time its process spent per request. */
async function measure(url: string, pid: number, durationSeconds: number) {
  const before = processCpuMs(pid)
  const result = await load({ url, durationSeconds, connections: 64, nextRequest: nextEvent })
  const after = processCpuMs(pid)
  const requests = result.requestsPerSecond * durationSeconds
  const cpuMicrosPerRequest =
    before === undefined || after === undefined ? NaN : ((after - before) * 1000) / requests
  return { ...result, cpuMicrosPerRequest }
}

/**
 * Accepted events per second (verify + dedup + durable enqueue) against an Express 5 hello-world answering the
 * same POST, each in its own process on this machine, alternating over three rounds in the same run (medians);
 * then p99 at half the receiver's maximum. The CPU time per request of each server process is reported too:
 * on a small machine the load generator and Redis compete with the server for cores, and that figure does not
 * depend on them.
 */
export async function benchReceiver(durationSeconds: number) {
  const redis = await startRedis()
  const hello = await startServiceProcess({
    entry: join(__dirname, 'hello-world.cjs'),
    cwd: service,
    env: { PATH: process.env.PATH },
    readyMessage: 'listening',
  })
  const receiver = await startServiceProcess({
    entry: join(service, 'dist', 'main.js'),
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'info',
      REDIS_URL: redis.url,
      PF_WEBHOOK_SECRET: SECRET,
    },
    readyMessage: 'webhook receiver listening',
  }).catch(async (error: unknown) => {
    await hello.stop()
    throw error
  })
  try {
    const helloUrl = `${hello.readyLine.url as string}/webhooks/pf`
    const receiverUrl = `${receiver.readyLine.url as string}/webhooks/pf`
    // Warm both up (JIT, Redis script cache) before measuring.
    await load({ url: helloUrl, durationSeconds: 2, connections: 64, nextRequest: nextEvent })
    await load({ url: receiverUrl, durationSeconds: 2, connections: 64, nextRequest: nextEvent })
    const baseline: Awaited<ReturnType<typeof measure>>[] = []
    const ours: Awaited<ReturnType<typeof measure>>[] = []
    for (let round = 0; round < 3; round += 1) {
      baseline.push(await measure(helloUrl, hello.child.pid!, durationSeconds))
      ours.push(await measure(receiverUrl, receiver.child.pid!, durationSeconds))
    }
    const baseRate = median(baseline.map((r) => r.requestsPerSecond))
    const ourRate = median(ours.map((r) => r.requestsPerSecond))
    const baseCpu = median(baseline.map((r) => r.cpuMicrosPerRequest))
    const ourCpu = median(ours.map((r) => r.cpuMicrosPerRequest))
    const halfRate = Math.floor(ourRate / 2)
    const half = await load({
      url: receiverUrl,
      durationSeconds,
      connections: 16,
      rate: halfRate,
      nextRequest: nextEvent,
    })
    const failures = ours.reduce((sum, r) => sum + r.errors + r.non2xx, 0)
    return [
      {
        benchmark: 'express hello-world (median of 3)',
        metric: 'req/s',
        value: Math.round(baseRate),
        target: '',
      },
      {
        benchmark: 'receiver accepted events (median of 3)',
        metric: 'events/s',
        value: Math.round(ourRate),
        target: `failures ${failures}`,
      },
      {
        benchmark: 'receiver / hello-world',
        metric: 'ratio',
        value: Number((ourRate / baseRate).toFixed(2)),
        target: '>= 0.8',
      },
      {
        benchmark: 'hello-world server CPU per request',
        metric: 'µs',
        value: Math.round(baseCpu),
        target: '',
      },
      { benchmark: 'receiver server CPU per request', metric: 'µs', value: Math.round(ourCpu), target: '' },
      {
        benchmark: `receiver p99 at ${halfRate}/s (half max)`,
        metric: 'ms',
        value: half.p99,
        target: '<= 20',
      },
    ]
  } finally {
    await receiver.stop()
    await hello.stop()
    await redis.stop()
  }
}
