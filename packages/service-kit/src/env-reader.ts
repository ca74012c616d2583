import { checkProductionSecrets, type SecretRule } from './check-production-secrets'
import { ConfigError } from './config-error'
import { redactUrl } from './redact-url'

export type Env = Readonly<Record<string, string | undefined>>

/**
 * What a library's own settings reader returns (one that takes the environment object and never reads
 * `process.env`, such as @pf/idp-clients' `readIdentityProviderSettings`).
 */
export interface LibrarySettings<T> {
  settings: T
  /** Every missing or bad setting, in words. */
  problems: readonly string[]
  /** The settings holding secrets, for the production check. */
  secrets?: readonly SecretRule[]
}

/**
 * Reads settings from an environment, collecting every problem so that a bad configuration is reported in
 * one go; `done()` throws a `ConfigError` listing them. Empty strings count as unset.
 *
 * @example
 * const env = createEnvReader(process.env)
 * const config = { port: env.int('PORT', { default: 3001, min: 1, max: 65535 }), secret: env.required('SECRET') }
 * env.done()
 */
export function createEnvReader(env: Env) {
  const problems: string[] = []
  const raw = (name: string) => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  const reader = {
    optional(name: string): string | undefined {
      return raw(name)
    },
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback
    },
    required(name: string, hint = ''): string {
      const value = raw(name)
      if (value === undefined) problems.push(`${name} is required${hint ? ` (${hint})` : ''}`)
      return value ?? ''
    },
    int(
      name: string,
      { default: fallback, min = -Infinity, max = Infinity }: { default: number; min?: number; max?: number },
    ) {
      const value = raw(name)
      if (value === undefined) return fallback
      const parsed = Number(value)
      if (Number.isInteger(parsed) && parsed >= min && parsed <= max) return parsed
      problems.push(`${name} must be an integer${rangeOf(min, max)} (got "${value}")`)
      return fallback
    },
    bool(name: string, fallback: boolean): boolean {
      const value = raw(name)?.toLowerCase()
      if (value === undefined) return fallback
      if (['true', '1', 'yes'].includes(value)) return true
      if (['false', '0', 'no'].includes(value)) return false
      problems.push(`${name} must be true or false (got "${value}")`)
      return fallback
    },
    oneOf<T extends string>(name: string, values: readonly T[], fallback?: T): T {
      const value = raw(name)
      if (value === undefined && fallback !== undefined) return fallback
      if (value === undefined || !(values as readonly string[]).includes(value)) {
        problems.push(
          `${name} must be one of ${values.join(', ')}${value === undefined ? '' : ` (got "${value}")`}`,
        )
        return fallback ?? (values[0] as T)
      }
      return value as T
    },
    list(name: string): string[] {
      return (raw(name) ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    },
    url(name: string, fallback?: string): string {
      const value = raw(name) ?? fallback
      if (value === undefined) {
        problems.push(`${name} is required`)
        return ''
      }
      try {
        new URL(value)
      } catch {
        // A URL may carry a password (redis://:secret@host): shown as every address is.
        problems.push(`${name} must be a URL (got "${redactUrl(value)}")`)
      }
      return value
    },
    /** Records a problem found by a cross-field check. */
    problem(message: string): void {
      problems.push(message)
    },
    /**
     * Settings a library reads itself from this environment: its problems join these, and its secrets get the
     * production check (`checkProductionSecrets`), as the service's own do.
     *
     * @example
     * const idp = env.include(readIdentityProviderSettings)
     */
    include<T>(read: (source: Env) => LibrarySettings<T>): T {
      const { settings, problems: found, secrets = [] } = read(env)
      problems.push(...found)
      checkProductionSecrets(reader, secrets)
      return settings
    },
    /**
     * Throws a `ConfigError` listing every problem, or returns `settings`. Given the settings read (each bad
     * one at its default), the error carries them, so that a doctor can still check what they allow.
     */
    done<T>(settings?: T): T {
      if (problems.length > 0) throw new ConfigError(problems, settings)
      return settings as T
    },
  }
  return reader
}

export type EnvReader = ReturnType<typeof createEnvReader>

/** ` >= min and <= max`, each part only when it bounds. */
function rangeOf(min: number, max: number): string {
  const range = [min > -Infinity && `>= ${min}`, max < Infinity && `<= ${max}`].filter(Boolean).join(' and ')
  return range ? ` ${range}` : ''
}
