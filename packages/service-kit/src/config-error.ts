/** Invalid configuration: the process prints the message on one line and exits non-zero. */
export class ConfigError extends Error {
  readonly code = 'ERR_CONFIG'
  /**
   * The settings as read despite the problems (each bad one at its default), when the reader gave them: what
   * a doctor can still check. Not enumerable: they hold secrets, and a logged error shows its own properties.
   */
  declare readonly partial?: unknown

  constructor(
    readonly problems: readonly string[],
    partial?: unknown,
  ) {
    super(`invalid configuration: ${problems.join('; ')}`)
    this.name = 'ConfigError'
    Object.defineProperty(this, 'partial', { value: partial, enumerable: false })
  }
}
