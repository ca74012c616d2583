import { join } from 'node:path'
import { startServiceProcess } from '@pf/testkit'
import { redisCommand, startRedis } from '@pf/testkit/redis'
import { load } from './load'
import { openLoop } from './open-loop'
import { processCpuMs } from './process-cpu'
import { nextEvent, SECRET } from './signed-events'
import { median, spread } from './stats'

const service = join(__dirname, '..')
const ROUNDS = 3

/** Closed-loop load (64 connections) on one server, with the CPU time its process spent per request answered. */
async function measure(url: string, pid: number, durationSeconds: number) {
  const before = processCpuMs(pid)
  const result = await load({ url, durationSeconds, connections: 64, nextRequest: nextEvent })
  const after = processCpuMs(pid)
  return { ...result, cpuMicrosPerRequest: cpuMicrosPer(before, after, result.ok) }
}

/** CPU time between two readings of `processCpuMs`, in µs per request. */
const cpuMicrosPer = (before: number | undefined, after: number | undefined, requests: number) =>
  before === undefined || after === undefined ? NaN : ((after - before) * 1000) / requests

/**
 * The CPU target (issue 38): the receiver's CPU per accepted event, its own process plus Redis's, at
 * most two thirds of the hello-world's CPU per request in the same round.
 */
export const CPU_RATIO_TARGET = 2 / 3

/**
 * Accepted events per second (verify + check + dedup + durable enqueue) against an Express 5 hello-world that
 * reads the same POST's raw body and answers JSON, each in its own process on this machine, alternating over
 * three rounds in the same run (min / median / max), with the CPU time per request of each server process
 * (on a small machine the load generator and Redis compete for the cores; that figure does not depend on
 * them). Then latency under an open-loop load (steady arrivals) at half the receiver's median maximum and at
 * 1000 requests per second. The private Redis is emptied before each round of the receiver.
 */
export async function benchReceiver(durationSeconds: number, { latency = true } = {}) {
  const redis = await startRedis()
  // Every measured round starts from an empty Redis, as the hello-world starts from no state: a round of
  // 70 000 stored events would otherwise slow the next one (the key space grows; no worker drains it here).
  const redisPort = Number(new URL(redis.url).port)
  const fresh = async () => {
    if (redis.isPrivate) await redisCommand(redisPort, ['FLUSHALL'])
  }
  // Redis's CPU is read as the servers' is, from /proc (every thread of it), by the pid it reports: only a
  // private redis-server, which serves nothing but this bench, is counted.
  const redisPid = redis.isPrivate
    ? Number(/process_id:(\d+)/.exec(String(await redisCommand(redisPort, ['INFO', 'server'])))?.[1])
    : NaN
  const redisCpuMs = () => (Number.isInteger(redisPid) ? processCpuMs(redisPid) : undefined)
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
    const redisMicros: number[] = []
    for (let round = 0; round < ROUNDS; round += 1) {
      baseline.push(await measure(helloUrl, hello.child.pid!, durationSeconds))
      await fresh()
      const redisBefore = redisCpuMs()
      const result = await measure(receiverUrl, receiver.child.pid!, durationSeconds)
      ours.push(result)
      redisMicros.push(cpuMicrosPer(redisBefore, redisCpuMs(), result.ok))
    }
    const ratios = ours.map((r, i) => r.requestsPerSecond / (baseline[i] as typeof r).requestsPerSecond)
    const cpuRatios = ours.map(
      (r, i) =>
        (r.cpuMicrosPerRequest + (redisMicros[i] as number)) / (baseline[i] as typeof r).cpuMicrosPerRequest,
    )
    const cpuRatio = median(cpuRatios)
    const halfRate = Math.floor(median(ours.map((r) => r.requestsPerSecond)) / 2)
    const steady = (url: string, rate: number) =>
      openLoop({ url, rate, durationSeconds, connections: 64, nextRequest: nextEvent })
    const half: Awaited<ReturnType<typeof steady>>[] = []
    const thousand: Awaited<ReturnType<typeof steady>>[] = []
    // The hello-world at the same rates: the machine's own floor for these tails.
    const helloHalf: Awaited<ReturnType<typeof steady>>[] = []
    const helloThousand: Awaited<ReturnType<typeof steady>>[] = []
    // `pnpm bench -- receiver-cpu`: throughput and CPU alone, for a quick comparison.
    for (let round = 0; latency && round < ROUNDS; round += 1) {
      await fresh()
      half.push(await steady(receiverUrl, halfRate))
      helloHalf.push(await steady(helloUrl, halfRate))
      await fresh()
      thousand.push(await steady(receiverUrl, 1000))
      helloThousand.push(await steady(helloUrl, 1000))
    }
    const failures =
      ours.reduce((sum, r) => sum + r.errors + r.non2xx, 0) +
      [...half, ...thousand].reduce((sum, r) => sum + r.errors + r.non2xx, 0)
    const rows = [
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
        benchmark: 'Redis CPU per accepted event',
        metric: 'µs min / median / max',
        value: spread(redisMicros),
        target: '',
      },
      {
        benchmark: 'receiver + Redis CPU per event / hello-world CPU per request, same round',
        metric: 'min / median / max',
        value: spread(cpuRatios, 2),
        target: `<= ${CPU_RATIO_TARGET.toFixed(2)}: ${cpuRatio <= CPU_RATIO_TARGET ? 'met' : 'NOT met'} (median)`,
      },
      {
        benchmark: `receiver p99, steady arrivals at ${halfRate}/s (half its maximum)`,
        metric: 'ms min / median / max',
        value: spread(
          half.map((r) => r.p99),
          1,
        ),
        target: `<= 20: ${median(half.map((r) => r.p99)) <= 20 ? 'met' : 'NOT met'} (median)`,
      },
      {
        benchmark: `hello-world p99 at the same ${halfRate}/s`,
        metric: 'ms min / median / max',
        value: spread(
          helloHalf.map((r) => r.p99),
          1,
        ),
        target: '',
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
      {
        benchmark: 'hello-world p99 at 1000/s',
        metric: 'ms min / median / max',
        value: spread(
          helloThousand.map((r) => r.p99),
          1,
        ),
        target: '',
      },
    ]
    return latency ? rows : rows.filter((row) => !row.benchmark.includes('p99'))
  } finally {
    await receiver.stop()
    await hello.stop()
    await redis.stop()
  }
}
