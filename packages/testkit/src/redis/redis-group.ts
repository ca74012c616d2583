import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRedisProcess, type RedisProcess } from './redis-process'

/** Redis processes started in one temporary folder, stopped and removed together. */
export interface RedisGroup {
  /** A `redis-server` in a folder of its own: nothing saved, and a replica syncs at once. */
  server(port: number, args?: string[]): Promise<RedisProcess>
  /** A `redis-sentinel` with these configuration lines (it rewrites its file, so each gets its own). */
  sentinel(port: number, config: string[]): Promise<RedisProcess>
  /** Every process, killed (newest first), and the folder removed. */
  stop(): Promise<void>
}

export function startRedisGroup(name: string): RedisGroup {
  const dir = mkdtempSync(join(tmpdir(), `pf-${name}-`))
  const started: RedisProcess[] = []
  const add = async (process: Promise<RedisProcess>) => {
    started.push(await process)
    return started[started.length - 1] as RedisProcess
  }
  return {
    server(port, args = []) {
      const nodeDir = mkdtempSync(join(dir, 'node-'))
      // The default waits 5 s for more replicas before it sends the first copy.
      const base = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
      base.push('--repl-diskless-sync-delay', '0', '--dir', nodeDir)
      return add(startRedisProcess({ binary: 'redis-server', port, args: [...base, ...args] }))
    },
    sentinel(port, config) {
      const file = join(dir, `sentinel-${port}.conf`)
      writeFileSync(file, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, ...config, ''].join('\n'))
      return add(startRedisProcess({ binary: 'redis-sentinel', port, args: [file] }))
    },
    async stop() {
      for (const process of started.splice(0).reverse()) await process.stop('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
