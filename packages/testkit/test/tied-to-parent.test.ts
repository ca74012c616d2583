import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const fixture = join(__dirname, 'fixtures', 'tied-parent.cjs')

beforeAll(() => {
  if (!existsSync(join(__dirname, '..', 'dist', 'index.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Children of `pid` as `{pid, command}` (Linux `ps`). */
const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [child, command] = line.trim().split(/\s+/)
      return { pid: Number(child), command: command! }
    })

/** Polls until every pid is gone; the count of polls is a hang guard, not a measurement. */
async function gone(pids: number[]) {
  for (let poll = 0; poll < 400 && pids.some(alive); poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return pids.filter(alive)
}

describe('processes the testkit starts end with their parent (guide: nothing you start outlives its parent)', () => {
  it.each(['running', 'frozen'])(
    'a service from startServiceProcess and a private redis-server (%s) end when their parent is SIGKILLed',
    async (redisState) => {
      const parent = spawn(process.execPath, [fixture, redisState], { stdio: ['ignore', 'pipe', 'inherit'] })
      const [line] = (await once(createInterface({ input: parent.stdout }), 'line')) as [string]
      const started = JSON.parse(line) as { service: number; redis: boolean }
      const children = childrenOf(parent.pid!)
      expect(children.map((c) => c.pid)).toContain(started.service)
      if (started.redis) expect(children.map((c) => c.command)).toContain('redis-server')

      parent.kill('SIGKILL')
      await once(parent, 'exit')
      const left = await gone(children.map((c) => c.pid))
      for (const pid of left) process.kill(pid, 'SIGKILL')
      expect(left).toEqual([])
    },
  )
})
