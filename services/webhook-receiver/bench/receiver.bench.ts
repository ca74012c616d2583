import { join } from 'node:path'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { createWebhookEvent } from '@pf/testkit/platform'
import { startRedis } from '@pf/testkit/redis'
import { load } from './load'
import { openLoop } from './open-loop'
import { processCpuMs } from './process-cpu'
import { median, spread } from './stats'

const SECRET = 'whsec_bench_secret'
const service = join(__dirname, '..')
const ROUNDS = 3

/** A fresh, signed session.created per request: every request is a new event, none is a duplicate. */
function nextEvent() {
  const body = JSON.stringify(createWebhookEvent('session.created'))
  return {
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
  }
}

/** Closed-loop load (64 connections) on one server, with the CPU time its process spent per request. */
async function measure(url: string, process: ServiceProcess, durationSeconds: number) {
  const pid = process.child.pid!
  const before = processCpuMs(pid)
  const result = await load({ url, durationSeconds, connections: 64, nextRequest: nextEvent })
  const after = processCpuMs(pid)
  const requests = result.requestsPerSecond * durationSeconds
  const cpuMicrosPerRequest =
    before === undefined || after === undefined ? NaN : ((after - before) * 1000) / requests
  return { ...result, cpuMicrosPerRequest }
}

/**
 * Accepted events per second (verify + check + dedup + durable enqueue) against an Express 5 hello-world that
 * reads the same POST's raw body and answers JSON, each in its own process on this machine, alternating over
 * three rounds in the same run (min / median / max), with the CPU time per request of each server process
 * (on a small machine the load generator and Redis compete for the cores; that figure does not depend on
 * them). Then latency under an open-loop load (steady arrivals) at half the receiver's median maximum and at
 * 1000 requests per second.
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
    for (let round = 0; round < ROUNDS; round += 1) {
      baseline.push(await measure(helloUrl, hello, durationSeconds))
      ours.push(await measure(receiverUrl, receiver, durationSeconds))
    }
    const ratios = ours.map((r, i) => r.requestsPerSecond / (baseline[i] as typeof r).requestsPerSecond)
    const halfRate = Math.floor(median(ours.map((r) => r.requestsPerSecond)) / 2)
    const steady = (rate: number) =>
      openLoop({ url: receiverUrl, rate, durationSeconds, connections: 64, nextRequest: nextEvent })
    const half: Awaited<ReturnType<typeof steady>>[] = []
    const thousand: Awaited<ReturnType<typeof steady>>[] = []
    for (let round = 0; round < ROUNDS; round += 1) {
      half.push(await steady(halfRate))
      thousand.push(await steady(1000))
    }
    const failures =
      ours.reduce((sum, r) => sum + r.errors + r.non2xx, 0) +
      [...half, ...thousand].reduce((sum, r) => sum + r.errors + r.non2xx, 0)
    return [
      {
        benchmark: 'express hello-world reading the raw body, req/s',
        metric: 'min / median / max',
        value: spread(baseline.map((r) => r.requestsPerSecond)),
        target: '',
      },
      {
        benchmark: 'receiver accepted events/s (verify, check, dedup, durable enqueue)',
        metric: 'min / median / max',
        value: spread(ours.map((r) => r.requestsPerSecond)),
        target: `failures ${failures}`,
      },
      {
        benchmark: 'receiver / hello-world, same round',
        metric: 'min / median / max',
        value: spread(ratios, 2),
        target: '>= 1.0',
      },
      {
        benchmark: 'server CPU per request: hello-world',
        metric: 'µs min / median / max',
        value: spread(baseline.map((r) => r.cpuMicrosPerRequest)),
        target: '',
      },
      {
        benchmark: 'server CPU per request: receiver',
        metric: 'µs min / median / max',
        value: spread(ours.map((r) => r.cpuMicrosPerRequest)),
        target: '',
      },
      {
        benchmark: `receiver p99, steady arrivals at ${halfRate}/s (half its maximum)`,
        metric: 'ms min / median / max',
        value: spread(
          half.map((r) => r.p99),
          1,
        ),
        target: '<= 20',
      },
      {
        benchmark: 'receiver p99, steady arrivals at 1000/s',
        metric: 'ms min / median / max',
        value: spread(
          thousand.map((r) => r.p99),
          1,
        ),
        target: '',
      },
    ]
  } finally {
    await receiver.stop()
    await hello.stop()
    await redis.stop()
  }
}
