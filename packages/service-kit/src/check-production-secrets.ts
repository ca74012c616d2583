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
}

/**
 * With `NODE_ENV=production`, records a problem for every secret that is a placeholder or shorter than
 * its rule allows (a service checks its own published demo values, such as the demo API key). Elsewhere (the sandbox, tests) it accepts them.
 *
 * @example
 * checkProductionSecrets(env, [{ name: 'PF_WEBHOOK_SECRET', values: secrets, minBytes: 32 }])
 */
export function checkProductionSecrets(env: EnvReader, rules: readonly SecretRule[]): void {
  if (env.optional('NODE_ENV') !== 'production') return
  for (const { name, values, minBytes = 0 } of rules) {
    for (const value of values) {
      if (value === '') continue // reported as missing by the reader
      if (PLACEHOLDER_SECRETS.includes(value.toLowerCase())) {
        env.problem(
          `${name} holds a placeholder or public value: set your own secret when NODE_ENV=production`,
        )
      } else if (Buffer.byteLength(value, 'utf8') < minBytes) {
        env.problem(
          `${name} must be at least ${minBytes} bytes when NODE_ENV=production (got ${Buffer.byteLength(value, 'utf8')})`,
        )
      }
    }
  }
}
