import { ConfigError } from './config-error'

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
  /** Resolves with what it found (shown after `ok`), or throws a `DoctorProblem` (or any error). */
  run: () => Promise<string | void>
}

export interface DoctorOptions {
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

/**
 * A service's `doctor`: reads its settings (`readConfig`; a `ConfigError` is one failed line per problem and
 * nothing else is checked), then runs the checks the settings give, one line each: `ok   <name>  <found>` or
 * `FAIL <name>  <why> (fix: …)`. Resolves false when any failed: the command exits 1.
 *
 * @example
 * await runDoctor(() => loadProviderConfig(process.env), (config) => [{ name: 'S3 bucket', run: … }])
 */
export async function runDoctor<C>(
  readConfig: () => C,
  checksOf: (config: C) => DoctorCheck[],
  { timeoutMs = 5000, write = (line) => process.stdout.write(`${line}\n`) }: DoctorOptions = {},
): Promise<boolean> {
  let config: C
  try {
    config = readConfig()
    write('ok    settings parse')
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    for (const problem of error.problems) write(`FAIL  settings: ${problem}`)
    return false
  }
  let healthy = true
  for (const check of checksOf(config)) {
    try {
      const found = await within(check.run(), timeoutMs)
      write(`ok    ${check.name}${found ? `  ${found}` : ''}`)
    } catch (error) {
      healthy = false
      const fix = error instanceof DoctorProblem && error.fix ? ` (fix: ${error.fix})` : ''
      write(`FAIL  ${check.name}: ${(error as Error).message}${fix}`)
    }
  }
  return healthy
}
