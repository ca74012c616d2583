import type { Env } from './env-reader'
import { redactUrls } from './redact-urls'
import { runDoctor, type DoctorCheck } from './run-doctor'

export interface DoctorCommandOptions {
  /** The service's folder name (`provider`), for the usage line. */
  service: string
  /** What its checks look at, after the settings (for `--help`). */
  checks: string
  /** The command's arguments (`process.argv.slice(2)`). */
  argv: readonly string[]
  env: Env
  timeoutMs?: number
}

/** The name of the root command that runs every service's doctor (`package.json`; the README names it). */
export const ROOT_DOCTOR_COMMAND = 'pnpm check-setup'

/**
 * `node services/<name>/dist/doctor.js` as a command: `--help` prints its usage on stdout (exit 0); any other
 * argument is a usage mistake (usage on stderr, exit 2); without arguments, `runDoctor` (exit 0, or 1 when
 * anything failed).
 *
 * @example
 * runDoctorCommand(loadProviderConfig, checks, { service: 'provider', checks: 'the S3 bucket exists', argv: process.argv.slice(2), env: process.env })
 */
export function runDoctorCommand<C>(
  readConfig: (env: Env) => C,
  checksOf: (config: C) => DoctorCheck[],
  { service, checks, argv, env, timeoutMs }: DoctorCommandOptions,
): void {
  const usage = `usage: node services/${service}/dist/doctor.js [--help]
  Checks the ${service}'s settings (this environment) and what they point at, without serving:
  the settings parse; what NODE_ENV=production would refuse; ${checks}.
  One line per check: ok, warn, FAIL, or skip when a setting it needs is wrong; exit 1 on any FAIL.
  ${ROOT_DOCTOR_COMMAND} at the repository's root runs every service's doctor.`
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`)
    process.exit(0)
  }
  if (argv.length > 0) {
    process.stderr.write(`doctor: unknown argument "${argv[0]}"\n${usage}\n`)
    process.exit(2)
  }
  runDoctor(readConfig, checksOf, { env, timeoutMs }).then(
    (ok) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(`doctor: ${redactUrls((error as Error)?.message ?? String(error))}\n`)
      process.exit(1)
    },
  )
}
