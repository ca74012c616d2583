import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { freePort } from '../lib/free-port'
import { commandTiedToParent } from '../lib/tied-to-parent'
import { redisPing } from './redis-ping'

export interface RedisHandle {
  /** `redis://127.0.0.1:<port>` of the private server, or the fallback URL. */
  url: string
  /** True when this handle owns a private `redis-server` process (so it may be stopped and started). */
  isPrivate: boolean
  /** Stops the private server (no-op for a shared one). Its data is gone: nothing is persisted. */
  stop(): Promise<void>
  /** Starts the private server again on the same port, empty. */
  start(): Promise<void>
}

export interface StartRedisOptions {
  /** Used when no `redis-server` binary can be started; tests usually pass `process.env.REDIS_URL`. */
  fallbackUrl?: string
  binary?: string
  /** How long to wait for the server to answer PING. */
  readyTimeoutMs?: number
}

/**
 * Starts a private, throw-away `redis-server` on a free port (no RDB, no AOF, nothing on disk), or falls back
 * to `fallbackUrl` when the binary is not installed.
 *
 * @example
 * const redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
 * afterAll(() => redis.stop())
 */
export async function startRedis({
  fallbackUrl = 'redis://127.0.0.1:6379',
  binary = 'redis-server',
  readyTimeoutMs = 5000,
}: StartRedisOptions = {}): Promise<RedisHandle> {
  // Asked first: behind setpriv a missing binary is an exit code, not a spawn error.
  if (
    (spawnSync(binary, ['--version'], { stdio: 'ignore' }).error as NodeJS.ErrnoException)?.code === 'ENOENT'
  ) {
    const noop = async () => {}
    return { url: fallbackUrl, isPrivate: false, stop: noop, start: noop }
  }
  const port = await freePort()
  let child: ChildProcess | undefined

  const start = async () => {
    // Tied to this process: a killed test run or sandbox leaves no redis-server behind.
    const [command, args] = commandTiedToParent(binary, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ])
    child = spawn(command, args, { stdio: 'ignore' })
    const proc = child
    // Tagged, not `instanceof Error`: spawn errors come from another realm under Jest.
    const failed = once(proc, 'error').then(([error]) => ({ error: error as Error }))
    const deadline = Date.now() + readyTimeoutMs
    while (Date.now() < deadline) {
      const outcome = await Promise.race([failed, redisPing('127.0.0.1', port).then((ready) => ({ ready }))])
      if ('error' in outcome) throw outcome.error
      if (outcome.ready) return
      if (proc.exitCode !== null) throw new Error(`redis-server exited with code ${proc.exitCode}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    proc.kill('SIGKILL')
    throw new Error(`redis-server did not answer on port ${port} within ${readyTimeoutMs} ms`)
  }

  const stop = async () => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = once(proc, 'exit')
    proc.kill('SIGTERM')
    await exited
  }

  await start()
  process.once('exit', () => child?.kill('SIGKILL'))
  return { url: `redis://127.0.0.1:${port}`, isPrivate: true, stop, start }
}
