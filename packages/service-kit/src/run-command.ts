import type { Env } from './env-reader'
import { redactUrls } from './redact-urls'
import { startTracing } from './start-tracing'

/**
 * Runs a command-line tool (not a service): its failure prints `<name>: <message>` on stderr and exits 1; its
 * success exits 0, once its output is written, so a lingering connection can never keep the command from returning. With `env` holding an
 * OTLP endpoint, tracing runs (`startTracing`) and its spans are exported before the command exits either way.
 *
 * @example
 * runCommand('pf-dead-letters', async () => { ... }, { env: process.env })
 */
export function runCommand(name: string, command: () => Promise<void>, { env }: { env?: Env } = {}): void {
  const run = async () => {
    const tracing = await startTracing({ serviceName: name, env: env ?? {} })
    try {
      await command()
    } finally {
      await tracing.shutdown()
    }
  }
  // Into a pipe, stdout is written asynchronously: exiting at once cut what was still queued (a `show` of a
  // large event). An empty write's callback runs once everything before it is out.
  const exit = (code: number) =>
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
  run().then(
    () => exit(0),
    (error: unknown) => {
      process.stderr.write(`${name}: ${redactUrls((error as Error)?.message ?? String(error))}\n`)
      exit(1)
    },
  )
}
