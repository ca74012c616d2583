// `pnpm start`: the local sandbox. `pnpm start --idp tenant` (or `realm,tenant`) for the Auth0 emulator.
import { SANDBOX, SandboxError, startSandbox } from './start-sandbox'
import { parseSandboxArgs } from './parse-sandbox-args'
import { sandboxBanner } from './sandbox-banner'

async function main() {
  const { idp, ports } = parseSandboxArgs(process.argv.slice(2))
  // Show what the worker's handlers do, and every warning or error of any service.
  const onLog = (service: string, line: Record<string, unknown>) => {
    const level = Number(line.level ?? 30)
    if (service === 'webhook worker' ? line.webhookId !== undefined : level >= 40) {
      console.log(`[${service}] ${String(line.msg)}${line.webhookId ? ` ${String(line.webhookId)}` : ''}`)
    }
  }
  const sandbox = await startSandbox({ idp, ports, redisUrl: process.env.REDIS_URL, onLog })
  console.log(sandboxBanner(sandbox, SANDBOX))
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    console.log('stopping…')
    void sandbox.stop().then(() => process.exit(0))
  }
  // A closed terminal (SIGHUP) stops as Ctrl-C does. However else this process ends, SIGKILL included,
  // each service sees its IPC channel close and stops itself (startServiceProcess's exitWithParent).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop)
}

main().catch((error: unknown) => {
  const known = error instanceof SandboxError
  process.stderr.write(`pnpm start: ${known ? error.message : String((error as Error)?.stack ?? error)}\n`)
  process.exit(1)
})
