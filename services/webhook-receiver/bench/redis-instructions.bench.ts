import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRedis } from '@pf/testkit/redis'
import { completed, fillQueue, startContender, type Contender } from './worker-contenders'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'

const JOBS = 2000

/** Instructions of the newest callgrind dump in `dir` (its `summary:` or `totals:` line). */
function dumpedInstructions(dir: string): number {
  const newest = readdirSync(dir)
    .filter((name) => name.startsWith('redis.'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  const line = newest && /^(?:summary|totals): (\d+)/m.exec(readFileSync(newest, 'utf8'))
  if (!line) throw new Error(`no callgrind dump in ${dir}`)
  return Number(line[1])
}

/**
 * What Redis does per job for each worker, counted rather than timed: `redis-server` runs under valgrind's
 * callgrind, whose instruction count does not move with the machine's load (the rates of `bench -- worker` move by
 * ±0.1 between runs here), and each worker drains 2000 jobs filled as the receiver fills them; the count is
 * zeroed before and dumped after each drain (`callgrind_control`). Skipped where valgrind is not installed.
 */
export async function benchRedisInstructions() {
  const row = (benchmark: string, value: string) => ({ benchmark, metric: 'instructions', value, target: '' })
  if (spawnSync('callgrind_control', ['--version'], { stdio: 'ignore' }).status !== 0)
    return [row('Redis instructions per job', 'skipped: valgrind (callgrind_control) is not installed')]
  const dir = mkdtempSync(join(tmpdir(), 'pf-callgrind-'))
  // startRedis runs this in place of redis-server (same arguments), tied to this process as redis-server is.
  const wrapper = join(dir, 'redis-under-callgrind')
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=${dir}/redis.%p redis-server "$@"\n`,
  )
  chmodSync(wrapper, 0o755)
  const redis = await startRedis({ binary: wrapper, readyTimeoutMs: 120_000 })
  const connection = createRedisConnection({ kind: 'url', url: redis.url, waitReplicas: 0 }, 'worker')
  try {
    const pid = /process_id:(\d+)/.exec(await connection.info('server'))?.[1]
    if (!redis.isPrivate || !pid) throw new Error('redis-server did not start under callgrind')
    const perJob: Record<Contender, number> = { bare: 0, off: 0, on: 0 }
    for (const contender of ['bare', 'off', 'on'] as const) {
      const prefix = `{${contender}}`
      await fillQueue(redis.url, prefix, contender, JOBS)
      execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' })
      const worker = startContender(contender, connection, prefix)
      await completed(worker, JOBS)
      await worker.close()
      execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' })
      perJob[contender] = dumpedInstructions(dir) / JOBS
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
