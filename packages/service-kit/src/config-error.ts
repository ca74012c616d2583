/** Invalid configuration: the process prints the message on one line and exits non-zero. */
export class ConfigError extends Error {
  readonly code = 'ERR_CONFIG'
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join('; ')}`)
    this.name = 'ConfigError'
  }
}
