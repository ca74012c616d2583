import { UsageError, type CommandName } from './usage'
import type { CommandValues } from './parse-command'

/** Reads a command's option values, turning every wrong one into a usage mistake that names the option. */
export function commandValues(values: CommandValues, command: CommandName) {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined)
  const need = (name: string) => {
    const value = text(name)
    if (!value) throw new UsageError(`--${name} is required`, command)
    return value
  }
  return {
    text,
    need,
    flag: (name: string) => values[name] === true,
    list: (name: string) => (values[name] as string[] | undefined) ?? [],
    /** An http(s) URL: `127.0.0.1:3001/x` would otherwise be read as a URL of scheme `127.0.0.1:`, or refused by fetch. */
    url(name: string, required = true) {
      const value = required ? need(name) : text(name)
      if (value === undefined) return undefined
      let scheme: string | undefined
      try {
        scheme = new URL(value).protocol
      } catch {
        // no scheme at all
      }
      if (scheme !== 'http:' && scheme !== 'https:')
        throw new UsageError(
          `--${name} needs a URL with its scheme, http:// or https:// (got "${value}": try http://${value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')})`,
          command,
        )
      return value
    },
    /** A number within bounds, or the default when the option is absent. */
    number(
      name: string,
      fallback: number,
      { min, max, integer }: { min: number; max?: number; integer?: boolean },
    ) {
      const raw = text(name)
      if (raw === undefined) return fallback
      const value = Number(raw)
      if (
        !Number.isFinite(value) ||
        value < min ||
        (max !== undefined && value > max) ||
        (integer && !Number.isInteger(value))
      )
        throw new UsageError(
          `--${name} takes ${integer ? 'a whole number' : 'a number'} from ${min}${max !== undefined ? ` to ${max}` : ''} (got "${raw}")`,
          command,
        )
      return value
    },
  }
}

/** `field=value` pairs; values that parse as JSON (numbers, booleans) are taken as such. */
export function namedValues(pairs: string[], option: string, command: CommandName): Record<string, unknown> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=')
      if (at < 1) throw new UsageError(`--${option} takes name=value (got "${pair}")`, command)
      const raw = pair.slice(at + 1)
      let value: unknown = raw
      try {
        value = JSON.parse(raw)
      } catch {
        // a plain string
      }
      return [pair.slice(0, at), value]
    }),
  )
}
