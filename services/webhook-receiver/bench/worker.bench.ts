import { availableParallelism, loadavg } from 'node:os'
import { startRedis } from '@pf/testkit/redis'
import { median } from './stats'
import { openRedisCounters, type RedisCounters } from './redis-counters'
import { completed, EVENTS_PER_SESSION, fillQueue, startContender, type Contender } from './worker-contenders'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'
import type { EventConsumer } from '../src/queue'

const JOBS = 10_000
/** Measured rounds, after one that is not: the first drain of each worker pays for its JIT compilation. */
const ROUNDS = 5
/** Events spread over this many sessions: with ordering on, at most this many run at once. */
const SESSIONS = JOBS / EVENTS_PER_SESSION
/** Issue 38: the webhook worker does at least this share of a bare BullMQ worker's jobs/s, ordering off and on. */
const TARGET_RATIO = 0.8

/** A ratio's row against the target, saying whether this run met it. */
const ratioRow = (benchmark: string, ratio: number) => ({
  benchmark,
  metric: 'ratio',
  value: Number(ratio.toFixed(2)),
  target: `>= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'missed'}`,
})

/** A drain's rate, and per job: script calls, the worker process's CPU and Redis's (µs). */
interface Drained {
  rate: number
  scripts: number
  workerUs: number
  redisUs: number
}

async function drain(
  start: () => Pick<EventConsumer, 'on' | 'close'>,
  counters: () => Promise<RedisCounters>,
): Promise<Drained> {
  const redisBefore = await counters()
  const cpuBefore = process.cpuUsage()
  const began = performance.now()
  const worker = start()
  await completed(worker, JOBS)
  const seconds = (performance.now() - began) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const redisAfter = await counters()
  await worker.close()
  return {
    rate: JOBS / seconds,
    scripts: (redisAfter.scriptCalls - redisBefore.scriptCalls) / JOBS,
    workerUs: (cpu.user + cpu.system) / JOBS,
    redisUs: ((redisAfter.cpuMs - redisBefore.cpuMs) * 1000) / JOBS,
  }
}

/**
 * Worker events/s through validation and dispatch, against a bare BullMQ no-op worker: same Redis, same run, the
 * same jobs (as the receiver stores them), alternating the workers over several rounds and keeping the median,
 * so none profits from warm-up alone.
 */
export async function benchWorker() {
  // The rates are the machine's as much as the worker's: the load they were measured under goes with them.
  const loadBefore = loadavg()[0] ?? 0
  const redis = await startRedis()
  const connection = createRedisConnection({ kind: 'url', url: redis.url, waitReplicas: 0 }, 'worker')
  const counters = await openRedisCounters(connection)
  const bareRuns: Drained[] = []
  const ourRuns: Drained[] = []
  const orderedRuns: Drained[] = []
  try {
    // Each round fills and drains a queue for each worker, the order turning from round to round: a worker that
    // always ran last (on a Redis and a heap the others had worked) would pay for its place, not its work.
    const contender = (kind: Contender, runs: Drained[]) => ({
      runs,
      run: async (round: number) => {
        const prefix = `{${kind}${round}}`
        await fillQueue(redis.url, prefix, kind, JOBS)
        return drain(() => startContender(kind, connection, prefix), counters)
      },
    })
    const contenders = [contender('bare', bareRuns), contender('off', ourRuns), contender('on', orderedRuns)]
    for (let round = -1; round < ROUNDS; round += 1) {
      for (let turn = 0; turn < contenders.length; turn += 1) {
        const contender = contenders[(round + 1 + turn) % contenders.length]!
        const run = await contender.run(round + 1)
        if (round >= 0) contender.runs.push(run)
      }
    }
    const rates = (runs: Drained[]) => runs.map((run) => run.rate)
    const [bareRates, ourRates, orderedRates] = [rates(bareRuns), rates(ourRuns), rates(orderedRuns)]
    // Each ratio is the median of the rounds' own: a round's three drains run within seconds of each other, so the
    // machine's drifts (other tenants, frequency) cancel in a round's ratio where they would not across rounds.
    const ratios = (rates: number[]) => rates.map((rate, round) => rate / bareRates[round]!)
    const [offRatios, onRatios] = [ratios(ourRates), ratios(orderedRates)]
    const [bare, off, on] = [median(bareRates), median(ourRates), median(orderedRates)]
    // Medians per job of each worker, bare | off | on: what the rates come from, steadier under load than they.
    const perJob = (of: (run: Drained) => number, digits: number) =>
      [bareRuns, ourRuns, orderedRuns].map((runs) => median(runs.map(of)).toFixed(digits)).join(' | ')
    const range = (rates: number[]) =>
      [...rates]
        .sort((a, b) => a - b)
        .map(Math.round)
        .join(' / ')
    return [
      {
        benchmark: `bare BullMQ no-op worker (median of ${ROUNDS})`,
        metric: 'jobs/s',
        value: Math.round(bare),
        target: '',
      },
      {
        benchmark: `webhook worker, validate + dispatch (median of ${ROUNDS})`,
        metric: 'jobs/s',
        value: Math.round(off),
        target: '',
      },
      ratioRow(
        "webhook worker / bare, WEBHOOK_ORDERING=off (median of the rounds' ratios)",
        median(offRatios),
      ),
      {
        benchmark: `webhook worker, WEBHOOK_ORDERING=session, ${SESSIONS} sessions (median of ${ROUNDS})`,
        metric: 'jobs/s',
        value: Math.round(on),
        target: '',
      },
      ratioRow(
        "webhook worker / bare, WEBHOOK_ORDERING=session (median of the rounds' ratios)",
        median(onRatios),
      ),
      {
        benchmark: 'rounds: bare | ordering off | ordering on',
        metric: 'jobs/s',
        value: `${range(bareRates)} | ${range(ourRates)} | ${range(orderedRates)}`,
        target: '',
      },
      {
        benchmark: "rounds' ratios to bare: ordering off | ordering on",
        metric: 'ratio',
        value: `${offRatios.map((r) => r.toFixed(2)).join(' ')} | ${onRatios.map((r) => r.toFixed(2)).join(' ')}`,
        target: '',
      },
      {
        benchmark: 'script calls per job: bare | ordering off | ordering on (median)',
        metric: 'calls',
        value: perJob((run) => run.scripts, 2),
        target: '',
      },
      {
        benchmark: 'worker process CPU per job: bare | off | on (median)',
        metric: 'µs',
        value: perJob((run) => run.workerUs, 0),
        target: '',
      },
      {
        benchmark: 'Redis CPU per job: bare | off | on (median)',
        metric: 'µs',
        value: perJob((run) => run.redisUs, 0),
        target: '',
      },
      {
        benchmark: 'load average (1 min) at start / end, cores',
        metric: 'load',
        value: `${loadBefore.toFixed(1)} / ${(loadavg()[0] ?? 0).toFixed(1)}, ${availableParallelism()} cores`,
        target: '',
      },
    ]
  } finally {
    connection.disconnect()
    await redis.stop()
  }
}
