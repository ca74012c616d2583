import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { redisCommand } from '@pf/testkit/redis'
import {
  callgrindInstalled,
  dumpInstructions,
  startRedisUnderCallgrind,
  type Counted,
  underCallgrind,
  zeroCounts,
} from './callgrind'
import { load } from './load'
import { CPU_RATIO_TARGET } from './receiver.bench'
import { nextEvent, SECRET } from './signed-events'

/** Requests each server answers before its count starts: V8 has compiled its hot code by then (steady counts). */
const WARM_UP = 9000
/** Requests counted. */
const COUNTED = 3000

/**
 * The receiver's CPU target (issue 38) counted rather than timed: the hello-world, the receiver and Redis run
 * under valgrind's callgrind, whose instruction counts do not move with the machine's load (the timed ratio of
 * `bench -- receiver` moves by ±0.1 between runs here, as the hello-world's own CPU per request does). Each
 * server answers `WARM_UP` requests, then `COUNTED` more with its counts (every thread) zeroed before and dumped
 * after, under the same load as the timed bench (64 connections, a fresh signed event each). Redis's count for the
 * receiver's events has its idle work taken off (its timers, measured while the hello-world ran, per second):
 * under callgrind a window lasts minutes, not the timed bench's seconds. What a count leaves out: the kernel (both
 * servers make one read and one write a request; the receiver adds one Redis write per batch of events). Skipped
 * without valgrind; about seven minutes here.
 */
export async function benchReceiverInstructions() {
  const row = (benchmark: string, value: string, target = '') => ({
    benchmark,
    metric: 'instructions',
    value,
    target,
  })
  if (!callgrindInstalled())
    return [row('receiver instructions per event', 'skipped: valgrind (callgrind_control) is not installed')]
  const dir = mkdtempSync(join(tmpdir(), 'pf-callgrind-'))
  const { redis, port: redisPort, pid: redisPid } = await startRedisUnderCallgrind(dir)
  const servers: ServiceProcess[] = []
  try {
    const start = (name: string, entry: string, env: Record<string, string>, readyMessage: string) =>
      startServiceProcess({
        entry,
        env: { PATH: process.env.PATH, ...env },
        readyMessage,
        timeoutMs: 600_000,
        runUnder: underCallgrind(dir, name, { threads: true }),
      }).then((server) => (servers.push(server), server))
    const hello = await start('hello', join(__dirname, 'hello-world.cjs'), {}, 'listening')
    const receiver = await start(
      'receiver',
      join(__dirname, '..', 'dist', 'main.js'),
      { PORT: '0', LOG_LEVEL: 'info', REDIS_URL: redis.url, PF_WEBHOOK_SECRET: SECRET },
      'webhook receiver listening',
    )
    const scriptCalls = async () =>
      Number(
        /cmdstat_evalsha:calls=(\d+)/.exec(
          String(await redisCommand(redisPort, ['INFO', 'commandstats'])),
        )?.[1] ?? 0,
      )
    const count = async (name: string, server: ServiceProcess) => {
      const url = `${server.readyLine.url as string}/webhooks/pf`
      const send = (amount: number) =>
        load({
          url,
          amount,
          durationSeconds: 0,
          connections: 64,
          timeoutSeconds: 600,
          nextRequest: nextEvent,
        })
      await send(WARM_UP)
      const pid = server.child.pid!
      // Redis's window is timed from its zeroing to its dump, the server's dump (seconds for V8's threads) included:
      // its idle rate is taken off over that whole time.
      const began = Date.now()
      zeroCounts(redisPid)
      zeroCounts(pid)
      const calls = await scriptCalls()
      const answered = await send(COUNTED)
      const instructions = dumpInstructions(dir, name, pid)
      const redisInstructions = dumpInstructions(dir, 'redis', redisPid)
      const seconds = (Date.now() - began) / 1000
      if (answered.ok !== COUNTED)
        throw new Error(`${name} answered ${answered.ok} of ${COUNTED} requests 2xx`)
      return { instructions, redisInstructions, seconds, scriptCalls: (await scriptCalls()) - calls }
    }
    const baseline = await count('hello', hello)
    const ours = await count('receiver', receiver)
    const redisIdlePerSecond = baseline.redisInstructions.all / baseline.seconds
    const redisPerEvent =
      Math.max(0, ours.redisInstructions.all - redisIdlePerSecond * ours.seconds) / COUNTED
    const perRequest = ({ all, firstThread }: Counted) => ({
      all: all / COUNTED,
      loop: firstThread / COUNTED,
    })
    const [hellos, receivers] = [perRequest(baseline.instructions), perRequest(ours.instructions)]
    const ratio = (receivers.all + redisPerEvent) / hellos.all
    const loopRatio = (receivers.loop + redisPerEvent) / hellos.loop
    const thousands = (instructions: number) => `${Math.round(instructions / 1000)}k`
    return [
      row(
        `instructions per request after ${WARM_UP} (callgrind, ${COUNTED} counted), every thread: hello-world | receiver | Redis per event`,
        `${thousands(hellos.all)} | ${thousands(receivers.all)} | ${thousands(redisPerEvent)} (${(COUNTED / Math.max(1, ours.scriptCalls)).toFixed(1)} events per script call)`,
      ),
      row(
        'the same, the event loop alone (no JIT or GC helper threads): hello-world | receiver',
        `${thousands(hellos.loop)} | ${thousands(receivers.loop)}`,
      ),
      row(
        '(receiver + Redis) instructions per event / hello-world per request: every thread | event loop',
        `${ratio.toFixed(2)} | ${loopRatio.toFixed(2)}`,
        `<= ${CPU_RATIO_TARGET.toFixed(2)}: ${ratio <= CPU_RATIO_TARGET ? 'met' : 'NOT met'} (every thread)`,
      ),
    ]
  } finally {
    for (const server of servers) await server.stop('SIGTERM', { killAfterMs: 120_000 })
    await redis.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
