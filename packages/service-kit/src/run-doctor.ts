import { ConfigError } from './config-error'
import type { Env } from './env-reader'
import { redactUrls } from './redact-urls'

/** A check that found something wrong, with how to fix it. */
export class DoctorProblem extends Error {
  constructor(
    message: string,
    readonly fix?: string,
  ) {
    super(message)
  }
}

export interface DoctorCheck {
  name: string
  /**
   * The settings it reads (`REDIS_URL`, or `REALM_*` for every one of a prefix): when a settings problem names
   * one of them, the check is not run (`skip`); the others still are. Without it, it runs only when every
   * setting is right.
   */
  needs?: readonly string[]
  /** Resolves with what it found (shown after `ok`), or throws a `DoctorProblem` (or any error). */
  run: () => Promise<string | void>
}

export interface DoctorOptions {
  /** The environment the settings are read from (`process.env`). */
  env: Env
  /** Longest one check may take (a dependency that never answers is a failure, not a hang); default 5000. */
  timeoutMs?: number
  write?: (line: string) => void
}

const within = <T>(work: Promise<T>, ms: number) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new DoctorProblem(`no answer within ${ms} ms`)), ms)
      timer.unref()
    }),
  ])

interface Settings<C> {
  /** The settings, or as much of them as could be read (`ConfigError.partial`). */
  config?: C
  problems: readonly string[]
}

function readSettings<C>(readConfig: (env: Env) => C, env: Env): Settings<C> {
  try {
    return { config: readConfig(env), problems: [] }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return { config: error.partial as C | undefined, problems: error.problems }
  }
}

/** The first setting of `needs` a problem names (`REALM_*` stands for every name it starts). */
function neededSetting(problem: string, needs: readonly string[]): string | undefined {
  for (const need of needs) {
    const pattern = need.endsWith('*') ? `${need.slice(0, -1)}[A-Z0-9_]*` : `${need}(?![A-Z0-9_])`
    const found = new RegExp(`(?<![A-Z0-9_])${pattern}`).exec(problem)
    if (found) return found[0]
  }
  return undefined
}

/**
 * A service's `doctor`: one line per finding, `ok   <name>  <found>`, `FAIL <name>: <why> (fix: …)`, `warn` or
 * `skip`, every address as `redactUrl` shows it. Every check that can run, runs: each settings problem is a
 * failed line, and the checks whose settings are right still run on what was read (`ConfigError.partial`).
 * Production's rules (`NODE_ENV=production`: no placeholder or demo secret, HTTPS) are the service's own when
 * the environment says so; otherwise they are not claimed to apply, and what they would refuse is a warning.
 * Resolves false when anything failed: the command exits 1.
 *
 * @example
 * await runDoctor(loadProviderConfig, (config) => [{ name: 'S3 bucket', needs: ['S3_*'], run: … }], { env: process.env })
 */
export async function runDoctor<C>(
  readConfig: (env: Env) => C,
  checksOf: (config: C) => DoctorCheck[],
  { env, timeoutMs = 5000, write = (line) => process.stdout.write(`${line}\n`) }: DoctorOptions,
): Promise<boolean> {
  const say = (line: string) => write(redactUrls(line))
  const production = env.NODE_ENV?.trim() === 'production'
  const settings = readSettings(readConfig, env)
  if (settings.problems.length === 0)
    say(`ok    settings parse${production ? '  production rules applied (NODE_ENV=production)' : ''}`)
  for (const problem of settings.problems) say(`FAIL  settings: ${problem}`)
  let healthy = settings.problems.length === 0
  // What production's rules refuse (a placeholder secret) keeps no check from running; the rest does.
  const usable = production && !healthy ? readSettings(readConfig, { ...env, NODE_ENV: undefined }) : settings
  if (!production) {
    const refused = readSettings(readConfig, { ...env, NODE_ENV: 'production' }).problems.filter(
      (problem) => !settings.problems.includes(problem),
    )
    say(
      refused.length === 0
        ? 'ok    production rules  not applied (NODE_ENV is not production); these settings pass them too'
        : `warn  production rules: not applied (NODE_ENV is not production); with NODE_ENV=production the service would refuse to start: ${refused.join('; ')}`,
    )
  }
  let checks: DoctorCheck[] | undefined
  try {
    checks = usable.config === undefined ? undefined : checksOf(usable.config)
  } catch (error) {
    if (usable.problems.length === 0) throw error // not a settings problem: the command's own failure
  }
  if (!checks) {
    say('skip  other checks  not run: the settings above are needed first')
    return false
  }
  for (const check of checks) {
    const blocked = usable.problems
      .map((problem) => (check.needs ? neededSetting(problem, check.needs) : 'the settings above'))
      .find(Boolean)
    if (blocked) {
      say(`skip  ${check.name}  not run: it needs ${blocked} (see above)`)
      continue
    }
    try {
      const found = await within(check.run(), timeoutMs)
      say(`ok    ${check.name}${found ? `  ${found}` : ''}`)
    } catch (error) {
      healthy = false
      // Read by shape, not class: a library bundling its own copy of this file (@pf/provider-kit) throws its own.
      const given = (error as { fix?: unknown } | null)?.fix
      const fix = typeof given === 'string' && given ? ` (fix: ${given})` : ''
      say(`FAIL  ${check.name}: ${(error as Error).message}${fix}`)
    }
  }
  return healthy
}
