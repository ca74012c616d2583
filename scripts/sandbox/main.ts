// `pnpm start`: the local sandbox. `pnpm start --help` lists the options.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describeBusyPort } from './describe-busy-port'
import { parseSandboxArgs, SANDBOX_HELP } from './parse-sandbox-args'
import { sandboxBanner } from './sandbox-banner'
import { createSandboxLog } from './sandbox-log'
import { SANDBOX, SandboxError, startSandbox, type Sandbox } from './start-sandbox'
import { watchHandlers } from './watch-handlers'

const root = join(__dirname, '..', '..')

/** Ctrl-C, SIGINT or SIGTERM: each service drains; a second one ends everything at once. */
function stopOnSignals(sandbox: Sandbox, onStop: () => void) {
  let stopping = false
  const stop = () => {
    if (stopping) {
      console.log('ending at once')
      // Each service sees its IPC channel close and ends itself (startServiceProcess's exitWithParent).
      process.exit(130)
    }
    stopping = true
    onStop()
    console.log('stopping: every service drains (Ctrl-C again ends everything at once)…')
    void sandbox.stop().then(() => {
      console.log('stopped')
      process.exit(0)
    })
  }
  // A closed terminal (SIGHUP) stops as Ctrl-C does.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop)
}

async function main() {
  const args = parseSandboxArgs(process.argv.slice(2))
  if (args.help) return console.log(SANDBOX_HELP)
  const handlers = args.handlers && resolve(args.handlers)
  if (handlers && !existsSync(handlers)) throw new SandboxError(`--handlers: ${handlers} does not exist`)
  const logDir = join(root, '.sandbox', 'logs')
  const onLog = createSandboxLog({ dir: logDir, verbose: args.verbose })
  const sandbox = await startSandbox({
    idp: args.idp,
    ports: args.ports,
    redisUrl: process.env.REDIS_URL,
    onLog,
    handlersModule: handlers,
    host: args.host,
  })
  console.log(sandboxBanner(sandbox, SANDBOX, { handlers, logDir }))
  const watcher = handlers
    ? watchHandlers(handlers, async () => {
        console.log(`${handlers} changed: the worker drains and restarts`)
        await sandbox.restartWorker().then(
          () => console.log('worker restarted with your handlers'),
          (error: unknown) => console.log(`the worker did not restart: ${(error as Error).message}`),
        )
      })
    : undefined
  stopOnSignals(sandbox, () => watcher?.close())
}

main().catch((error: unknown) => {
  const known = error instanceof SandboxError
  const message = known
    ? error.message
    : (describeBusyPort(error) ?? String((error as Error)?.stack ?? error))
  process.stderr.write(`pnpm start: ${message}\n`)
  process.exit(1)
})
