import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { redisCommand, startRedis } from '@pf/testkit/redis'

/** Whether valgrind's callgrind (and its `callgrind_control`) can be run here. */
export const callgrindInstalled = () =>
  spawnSync('callgrind_control', ['--version'], { stdio: 'ignore' }).status === 0

/**
 * A command line that runs a program under callgrind, writing its dumps to `dir` as `<name>.<pid>.<n>` (with
 * `-<thread>` after each, one file a thread, when `threads`). `--smc-check=all-non-file` lets a JIT (V8) run.
 */
export const underCallgrind = (dir: string, name: string, { threads = false } = {}) => [
  'valgrind',
  '--tool=callgrind',
  '--smc-check=all-non-file',
  `--callgrind-out-file=${join(dir, name)}.%p`,
  ...(threads ? ['--separate-threads=yes'] : []),
]

/** An executable in `dir` that runs `binary` under callgrind with the same arguments (for `startRedis`). */
function callgrindWrapper(dir: string, binary: string, name: string): string {
  const wrapper = join(dir, `${name}-under-callgrind`)
  writeFileSync(wrapper, `#!/bin/sh\nexec ${underCallgrind(dir, name).join(' ')} ${binary} "$@"\n`)
  chmodSync(wrapper, 0o755)
  return wrapper
}

/**
 * A private `redis-server` under callgrind (`startRedis` runs the wrapper in place of redis-server, tied to this
 * process as redis-server is), its dumps in `dir`, and the pid to zero and dump.
 */
export async function startRedisUnderCallgrind(dir: string) {
  const redis = await startRedis({
    binary: callgrindWrapper(dir, 'redis-server', 'redis'),
    readyTimeoutMs: 120_000,
  })
  const port = Number(new URL(redis.url).port)
  const pid = /process_id:(\d+)/.exec(String(await redisCommand(port, ['INFO', 'server'])))?.[1]
  if (!redis.isPrivate || !pid) {
    await redis.stop()
    throw new Error('redis-server did not start under callgrind')
  }
  return { redis, port, pid }
}

/** Zeroes the counts of a process under callgrind. */
export const zeroCounts = (pid: number | string) =>
  execFileSync('callgrind_control', ['-z', String(pid)], { stdio: 'ignore' })

/** Instructions a dump counted: in all, and on its first thread (a Node process's event loop). */
export interface Counted {
  all: number
  firstThread: number
}

/**
 * Dumps the counts of a process under callgrind since they were last zeroed, and returns its instructions: the
 * newest dump's, its threads' added up (`<name>.<pid>.<n>-<thread>`), and its first thread's. `callgrind_control
 * -d` returns once the files are written.
 */
export function dumpInstructions(dir: string, name: string, pid: number | string): Counted {
  execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore' })
  const dumps = readdirSync(dir)
    .map((file) => ({ file, match: new RegExp(`^${name}\\.${pid}\\.(\\d+)(?:-(\\d+))?$`).exec(file) }))
    .filter((dump) => dump.match !== null)
  const newest = Math.max(...dumps.map((dump) => Number(dump.match![1])))
  const files = dumps.filter((dump) => Number(dump.match![1]) === newest)
  if (files.length === 0) throw new Error(`no callgrind dump of ${name} (${pid}) in ${dir}`)
  const instructions = (file: string) =>
    Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0)
  const counts = files.map(({ file, match }) => ({
    thread: Number(match![2] ?? 1),
    count: instructions(file),
  }))
  return {
    all: counts.reduce((sum, { count }) => sum + count, 0),
    firstThread: counts.find(({ thread }) => thread === 1)?.count ?? 0,
  }
}
