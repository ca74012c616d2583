import { spawnSync } from 'node:child_process'
import { freePort } from '../lib/free-port'
import { startRedisProcess } from './redis-process'

export interface RedisHandle {
  /** `redis://127.0.0.1:<port>` of the private server, or the fallback URL. */
  url: string
  /** True when this handle owns a private `redis-server` process (so it may be stopped and started). */
  isPrivate: boolean
  /** Stops the private server (no-op for a shared one). Its data is gone: nothing is persisted. */
  stop(): Promise<void>
  /** Starts the private server again on the same port, empty. */
  start(): Promise<void>
  /** Freezes the private server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void
  /** Lets the frozen server run again (SIGCONT), its data intact. */
  resume(): void
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
    const notPrivate = () => {
      throw new Error('a shared Redis cannot be paused by a test')
    }
    return {
      url: fallbackUrl,
      isPrivate: false,
      stop: noop,
      start: noop,
      pause: notPrivate,
      resume: notPrivate,
    }
  }
  const port = await freePort()
  const server = await startRedisProcess({
    binary,
    port,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    readyTimeoutMs,
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    isPrivate: true,
    stop: () => server.stop(),
    start: () => server.start(),
    pause: () => server.pause(),
    resume: () => server.resume(),
  }
}
