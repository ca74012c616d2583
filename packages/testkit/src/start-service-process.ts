import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { nodeChildTiedToParent } from './lib/tied-to-parent'

export interface ServiceProcess {
  child: ChildProcess
  /** Every stdout line, parsed as JSON (pino) when it is, else `{ msg: line }`. */
  logs: Record<string, unknown>[]
  /** Everything written to stderr. */
  stderr: () => string
  /** The log line that said the process was ready. */
  readyLine: Record<string, unknown>
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  /**
   * Sends a signal (default SIGTERM) and waits for the exit. A process still there after `killAfterMs`
   * (default 20 s, a hang guard) is killed with SIGKILL, so a test sees `null` instead of hanging.
   */
  stop(signal?: NodeJS.Signals, options?: { killAfterMs?: number }): Promise<number | null>
}

export interface StartServiceProcessOptions {
  /** The script to run with this Node (e.g. `services/provider/dist/main.js`). */
  entry: string
  args?: string[]
  env?: Record<string, string | undefined>
  cwd?: string
  /** The `msg` of the log line that means "ready". */
  readyMessage: string
  /** Longest wait for `readyMessage` (default 120 000 ms). */
  timeoutMs?: number
  /** Called with every log line as it comes (parsed like `logs`). */
  onLog?: (line: Record<string, unknown>) => void
  /**
   * Default true: the child gets SIGTERM when this process ends, however it ends (SIGKILL included), so a
   * killed sandbox or test run leaves no service holding its port.
   */
  exitWithParent?: boolean
  /**
   * A command line this Node runs under, its program first (a bench's `['valgrind', '--tool=callgrind', …]`):
   * the child is then that program, given this Node and its arguments.
   */
  runUnder?: string[]
}

/**
 * Starts a service's entry point as a child process and resolves once it logs `readyMessage`; rejects with
 * its stderr if it exits first or takes longer than `timeoutMs`.
 *
 * @example
 * const receiver = await startServiceProcess({ entry: 'dist/main.js', env, readyMessage: 'webhook receiver listening' })
 * const { url } = receiver.readyLine as { url: string }
 */
export function startServiceProcess({
  entry,
  args = [],
  env = {},
  cwd,
  readyMessage,
  // A hang guard: a loaded 2-core machine (CI, parallel test files) can take far longer than 15 s to start a
  // service, and a child that exits first rejects at once anyway.
  timeoutMs = 120_000,
  onLog,
  exitWithParent = true,
  runUnder = [],
}: StartServiceProcessOptions): Promise<ServiceProcess> {
  const tied = exitWithParent
    ? nodeChildTiedToParent
    : { execArgv: [], stdio: ['ignore', 'pipe', 'pipe'] as const }
  const [program, ...programArgs] = [...runUnder, process.execPath, ...tied.execArgv, entry, ...args] as [
    string,
    ...string[],
  ]
  const child = spawn(program, programArgs, {
    cwd,
    env,
    stdio: [...tied.stdio],
  })
  const logs: Record<string, unknown>[] = []
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.removeListener('exit', killOnExit)
      resolve(code)
    }),
  )

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${entry} did not log "${readyMessage}" within ${timeoutMs} ms\n${stderr}`))
    }, timeoutMs)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${entry} exited with code ${code} before it was ready\n${stderr}`))
    })
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entryLine: Record<string, unknown>
      try {
        entryLine = JSON.parse(line) as Record<string, unknown>
      } catch {
        entryLine = { msg: line }
      }
      logs.push(entryLine)
      onLog?.(entryLine)
      if (entryLine.msg !== readyMessage) return
      clearTimeout(timer)
      resolve({
        child,
        logs,
        stderr: () => stderr,
        readyLine: entryLine,
        exited,
        async stop(signal = 'SIGTERM', { killAfterMs = 20_000 } = {}) {
          if (child.exitCode !== null || child.signalCode !== null) return exited
          child.kill(signal)
          const guard = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
          return exited.finally(() => clearTimeout(guard))
        },
      })
    })
  })
}
