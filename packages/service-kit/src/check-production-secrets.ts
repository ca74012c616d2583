import type { EnvReader } from './env-reader'

/** Values that mean "not set yet": the manifests' placeholders and the usual stand-ins. */
export const PLACEHOLDER_SECRETS: readonly string[] = [
  'change-me',
  'changeme',
  'change_me',
  'replace-me',
  'secret',
  'password',
  'admin',
  'test',
  'todo',
]

export interface SecretRule {
  /** The setting's name, for the message; its value never appears in one. */
  name: string
  /** Its values (a comma list during a rotation gives several). */
  values: readonly string[]
  /** Shortest value accepted in production, in UTF-8 bytes (an HMAC key: 32). */
  minBytes?: number
  /**
   * Set for a secret the operator cannot choose (the platform generates the webhook secret): a value shorter
   * than `minBytes` is then a warning giving this reason, not a refusal, which would only stop the service.
   */
  warnWhenShort?: string
}

/**
 * With `NODE_ENV=production`, records a problem for every secret that is a placeholder or shorter than
 * its rule allows (a service checks its own published demo values, such as the demo API key), and returns a
 * warning instead for each short one whose rule has `warnWhenShort`. Elsewhere (the sandbox, tests) it accepts
 * them all.
 *
 * @example
 * const warnings = checkProductionSecrets(env, [
 *   { name: 'PF_WEBHOOK_SECRET', values: secrets, minBytes: 32, warnWhenShort: 'the platform generates it' },
 * ])
 */
export function checkProductionSecrets(env: EnvReader, rules: readonly SecretRule[]): string[] {
  const warnings: string[] = []
  if (env.optional('NODE_ENV') !== 'production') return warnings
  for (const { name, values, minBytes = 0, warnWhenShort } of rules) {
    for (const value of values) {
      if (value === '') continue // reported as missing by the reader
      const bytes = Buffer.byteLength(value, 'utf8')
      if (PLACEHOLDER_SECRETS.includes(value.toLowerCase())) {
        env.problem(
          `${name} holds a placeholder or public value: set your own secret when NODE_ENV=production`,
        )
      } else if (bytes < minBytes && warnWhenShort !== undefined) {
        warnings.push(`${name} is ${bytes} bytes, under ${minBytes}: accepted, as ${warnWhenShort}`)
      } else if (bytes < minBytes) {
        env.problem(`${name} must be at least ${minBytes} bytes when NODE_ENV=production (got ${bytes})`)
      }
    }
  }
  return warnings
}
