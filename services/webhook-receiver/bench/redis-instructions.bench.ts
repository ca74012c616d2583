import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callgrindInstalled, dumpInstructions, startRedisUnderCallgrind, zeroCounts } from './callgrind'
import { completed, fillQueue, startContender, type Contender } from './worker-contenders'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'

const JOBS = 2000

/**
 * What Redis does per job for each worker, counted rather than timed: `redis-server` runs under valgrind's
 * callgrind, whose instruction count does not move with the machine's load (the rates of `bench -- worker` move by
 * ±0.1 between runs here), and each worker drains 2000 jobs filled as the receiver fills them; the count is
 * zeroed before and dumped after each drain (`callgrind_control`). Skipped where valgrind is not installed.
 */
export async function benchRedisInstructions() {
  const row = (benchmark: string, value: string) => ({ benchmark, metric: 'instructions', value, target: '' })
  if (!callgrindInstalled())
    return [row('Redis instructions per job', 'skipped: valgrind (callgrind_control) is not installed')]
  const dir = mkdtempSync(join(tmpdir(), 'pf-callgrind-'))
  const { redis, pid } = await startRedisUnderCallgrind(dir)
  const connection = createRedisConnection({ kind: 'url', url: redis.url, waitReplicas: 0 }, 'worker')
  try {
    const perJob: Record<Contender, number> = { bare: 0, off: 0, on: 0 }
    for (const contender of ['bare', 'off', 'on'] as const) {
      const prefix = `{${contender}}`
      await fillQueue(redis.url, prefix, contender, JOBS)
      zeroCounts(pid)
      const worker = startContender(contender, connection, prefix)
      await completed(worker, JOBS)
      await worker.close()
      perJob[contender] = dumpInstructions(dir, 'redis', pid).all / JOBS
    }
    const thousands = (instructions: number) => `${Math.round(instructions / 1000)}k`
    return [
      row(
        `Redis instructions per job (callgrind, ${JOBS} jobs): bare | off | on`,
        `${thousands(perJob.bare)} | ${thousands(perJob.off)} | ${thousands(perJob.on)}`,
      ),
      row(
        'Redis instructions per job, off / bare | on / bare',
        `${(perJob.off / perJob.bare).toFixed(2)} | ${(perJob.on / perJob.bare).toFixed(2)}`,
      ),
    ]
  } finally {
    connection.disconnect()
    await redis.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
