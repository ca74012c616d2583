import type { Env } from './env-reader'
import { redactUrls } from './redact-urls'
import { startTracing } from './start-tracing'

/**
 * Runs a command-line tool (not a service): its failure prints `<name>: <message>` on stderr and exits 1; its
 * success exits 0, so a lingering connection can never keep the command from returning. With `env` holding an
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
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name}: ${redactUrls((error as Error)?.message ?? String(error))}\n`)
      process.exit(1)
    },
  )
}
