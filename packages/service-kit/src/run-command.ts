/**
 * Runs a command-line tool (not a service): its failure prints `<name>: <message>` on stderr and exits 1; its
 * success exits 0, so a lingering connection can never keep the command from returning.
 *
 * @example
 * runCommand('pf-dead-letters', async () => { ... })
 */
export function runCommand(name: string, command: () => Promise<void>): void {
  command().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name}: ${(error as Error)?.message ?? String(error)}\n`)
      process.exit(1)
    },
  )
}
