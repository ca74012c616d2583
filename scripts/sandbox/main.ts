// `pnpm start`: the local sandbox. `pnpm start --help` lists the options.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildIfChanged } from './build-if-changed'
import { describeBusyPort } from './describe-busy-port'
import { parseSandboxArgs, SANDBOX_HELP, SandboxUsageError } from './parse-sandbox-args'
import { passedSettings } from './passed-settings'
import { createSpanTreePrinter } from './print-span-trees'
import { pruneStoppedSandboxes, recordRunningSandbox } from './running-sandboxes'
import { sandboxBanner } from './sandbox-banner'
import { sandboxHome } from './sandbox-home'
import { createSandboxLog } from './sandbox-log'
import { sandboxPlace } from './sandbox-place'
import { SANDBOX, SandboxError, startSandbox, type Sandbox } from './start-sandbox'
import { watchHandlers } from './watch-handlers'

const root = join(__dirname, '..', '..')

/** Ctrl-C, SIGINT or SIGTERM: each service drains; a second one ends everything at once. */
function stopOnSignals(sandbox: Sandbox, onStop: () => void, onStopped: () => void) {
  let stoppingSince: number | undefined
  const stop = () => {
    // pnpm hands the terminal's SIGINT on to its script, which has it already (the whole process group gets
    // it): a repeat within a second is that one Ctrl-C, not a second.
    if (stoppingSince !== undefined && Date.now() - stoppingSince < 1000) return
    if (stoppingSince !== undefined) {
      console.log('ending at once')
      // Each service sees its IPC channel close and ends itself (startServiceProcess's exitWithParent).
      process.exit(130)
    }
    stoppingSince = Date.now()
    onStop()
    console.log('stopping: every service drains (Ctrl-C again ends everything at once)…')
    void sandbox.stop().then(() => {
      onStopped()
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
  // In this process, not a `build && start` in pnpm's shell: Ctrl-C reaches that shell too, and a shell ended
  // by SIGINT is what pnpm reports as ELIFECYCLE, even when the sandbox stopped cleanly.
  const build = buildIfChanged()
  // WEBHOOK_HANDLERS is the worker's own setting for the same file: taken as --handlers.
  const handlersFile = args.handlers ?? process.env.WEBHOOK_HANDLERS
  const handlers = handlersFile && resolve(handlersFile)
  if (handlers && !existsSync(handlers)) throw new SandboxError(`--handlers: ${handlers} does not exist`)
  const home = sandboxHome(root)
  pruneStoppedSandboxes(home)
  const place = sandboxPlace(home, { ports: args.ports, portOffset: args.portOffset, pid: process.pid })
  const onLog = createSandboxLog({ dir: join(place.dir, 'logs'), verbose: args.verbose })
  const traces = args.traces ? createSpanTreePrinter() : undefined
  const sandbox = await startSandbox({
    idp: args.idp,
    ports: args.ports,
    portOffset: args.portOffset,
    redisUrl: process.env.REDIS_URL,
    dataDir: place.dir,
    queuePrefix: place.queuePrefix,
    env: passedSettings(process.env),
    lists: args.lists,
    onLog,
    onSpans: traces?.add,
    handlersModule: handlers,
    host: args.host,
    companies: args.companies,
  })
  const unrecord = recordRunningSandbox(place, {
    redisUrl: sandbox.redis.url,
    jobSettings: {
      WEBHOOK_JOB_ATTEMPTS: String(sandbox.jobs.attempts),
      WEBHOOK_JOB_BACKOFF_MS: String(sandbox.jobs.backoffMs),
      // pnpm dead-letters reads the shards the sandbox's processes were given.
      ...Object.fromEntries(
        Object.entries(passedSettings(process.env)).filter(([name]) => name.startsWith('QUEUE_')),
      ),
    },
  })
  const watcher = handlers
    ? watchHandlers(handlers, async () => {
        console.log(`${handlers} changed: the worker drains and restarts`)
        await sandbox.restartWorker().then(
          () => console.log('worker restarted with your handlers'),
          (error: unknown) => console.log(`the worker did not restart: ${(error as Error).message}`),
        )
      })
    : undefined
  stopOnSignals(
    sandbox,
    () => {
      watcher?.close()
      unrecord()
    },
    () => traces?.flush(),
  )
  // Only now: a Ctrl-C as soon as the banner shows must find the handler (before it, SIGINT's default ended
  // this process by the signal, which pnpm passes on, and the test that presses it at once failed under load).
  const defaultHome = home === sandboxHome(root, {})
  console.log(
    sandboxBanner(sandbox, SANDBOX, {
      handlers,
      dir: place.dir,
      home: defaultHome ? undefined : home,
      build,
      root,
    }),
  )
}

main().catch((error: unknown) => {
  const known = error instanceof SandboxError
  const message = known
    ? error.message
    : (describeBusyPort(error) ?? String((error as Error)?.stack ?? error))
  process.stderr.write(`pnpm start: ${message}\n`)
  process.exit(error instanceof SandboxUsageError ? 2 : 1)
})
