/** An environment: `process.env`, a `.env` file read by the caller, or any object of the same shape. */
export type Environment = Readonly<Record<string, string | undefined>>

/**
 * A value that is not a URL, as a problem may show it: what stands before the last `@` (a user and password) and
 * what follows `?` or `#` (a token in a query) are never shown.
 */
const shown = (value: string) =>
  value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, '$1***@').replace(/[?#].*$/, '?***')

/**
 * Reads settings from `env` (never `process.env`), collecting every problem in words (`REALM_NAME is required`):
 * the reader of a library that a service's own reader includes. Empty strings count as unset; values are trimmed.
 * The rules and messages are those of the services' reader (`createEnvReader` of the internal `@pf/service-kit`,
 * which a published package cannot depend on), so a setting reads and fails alike in both.
 */
export function createSettingsReader(env: Environment) {
  const problems: string[] = []
  const raw = (name: string) => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  return {
    problems,
    optional: raw,
    string: (name: string, fallback: string): string => raw(name) ?? fallback,
    required(name: string, hint = ''): string {
      const value = raw(name)
      if (value === undefined) problems.push(`${name} is required${hint ? ` (${hint})` : ''}`)
      return value ?? ''
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
    url(name: string, fallback?: string): string {
      const value = raw(name) ?? fallback
      if (value === undefined) {
        problems.push(`${name} is required`)
        return ''
      }
      try {
        new URL(value)
      } catch {
        problems.push(`${name} must be a URL (got "${shown(value)}")`)
      }
      return value
    },
    /** Records a problem found by a check across settings. */
    problem: (message: string): void => void problems.push(message),
  }
}

export type SettingsReader = ReturnType<typeof createSettingsReader>
