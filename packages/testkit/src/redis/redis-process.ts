import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { commandTiedToParent } from '../lib/tied-to-parent'
import { redisPing } from './redis-ping'

// Every process started here, killed when this process exits (one listener, however many processes).
const alive = new Set<ChildProcess>()
let exitHook = false

/** One `redis-server` (or `redis-sentinel`) process on a fixed port, which a test may stop and start again. */
export interface RedisProcess {
  port: number
  /** Starts it (again) and resolves once it answers PING. */
  start(): Promise<void>
  /** Stops it: SIGTERM (a clean shutdown) or SIGKILL (a crash); resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /**
   * Freezes it (SIGSTOP): connections stay open and commands go unanswered, as with a stalled host or a
   * long fork, which is harder on a client than a refused connection.
   */
  pause(): void
  /** Lets a frozen process run again (SIGCONT). */
  resume(): void
}

export interface RedisProcessOptions {
  binary: string
  port: number
  /** Its command-line arguments (a config file first for `redis-sentinel`). */
  args: string[]
  readyTimeoutMs?: number
}

/**
 * A Redis process tied to this one (a killed test run leaves none behind), started once it answers PING on
 * 127.0.0.1; every process is also killed when this one exits.
 */
export async function startRedisProcess({
  binary,
  port,
  args,
  readyTimeoutMs = 5000,
}: RedisProcessOptions): Promise<RedisProcess> {
  let child: ChildProcess | undefined

  const start = async () => {
    const [command, commandArgs] = commandTiedToParent(binary, args)
    child = spawn(command, commandArgs, { stdio: 'ignore' })
    const proc = child
    alive.add(proc)
    proc.once('exit', () => alive.delete(proc))
    if (!exitHook) {
      exitHook = true
      process.once('exit', () => alive.forEach((running) => running.kill('SIGKILL')))
    }
    // Tagged, not `instanceof Error`: spawn errors come from another realm under Jest.
    const failed = once(proc, 'error').then(([error]) => ({ error: error as Error }))
    const deadline = Date.now() + readyTimeoutMs
    while (Date.now() < deadline) {
      const outcome = await Promise.race([failed, redisPing('127.0.0.1', port).then((ready) => ({ ready }))])
      if ('error' in outcome) throw outcome.error
      if (outcome.ready) return
      if (proc.exitCode !== null) throw new Error(`${binary} exited with code ${proc.exitCode}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    proc.kill('SIGKILL')
    throw new Error(`${binary} did not answer on port ${port} within ${readyTimeoutMs} ms`)
  }

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = once(proc, 'exit')
    proc.kill(signal)
    // A frozen process acts on SIGTERM only once it runs again.
    proc.kill('SIGCONT')
    await exited
  }

  const signal = (name: NodeJS.Signals) => {
    if (!child || child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${binary} on port ${port} is not running`)
    child.kill(name)
  }

  await start()
  return { port, start, stop, pause: () => signal('SIGSTOP'), resume: () => signal('SIGCONT') }
}
