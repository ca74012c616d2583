/** What a test suite started, registered as it starts, so that all of it can be undone whatever failed. */
export interface Cleanup {
  /** Registers how to undo `resource` and returns it, so that a start and its undo sit on one line. */
  add<T>(resource: T, undo: (resource: T) => unknown): T
  /** Registers an undo that has no resource to return (a temporary folder, an environment variable). */
  defer(undo: () => unknown): void
  /**
   * Runs every registered undo, newest first, and forgets them; each runs even when an earlier one threw.
   * Rejects afterwards with the error (or an `AggregateError` of the errors) they threw.
   */
  run(): Promise<void>
}

/**
 * Cleanups registered as resources are started. A `beforeAll` that fails halfway leaves its later variables
 * unset, and an `afterAll` that stops them one by one throws on the first unset one, leaving the rest (a
 * server, a child process) alive and the runner waiting on them for ever after its summary; here only what
 * started is registered, and every registered undo runs. Pass the hook that should run them (`afterAll`,
 * `afterEach`), or call `run()` yourself.
 *
 * @example
 * const cleanup = createCleanup(afterAll)
 * beforeAll(async () => {
 *   redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
 *   receiver = cleanup.add(await startReceiver(redis.url), (r) => r.stop()) // may throw: redis still stops
 * })
 */
export function createCleanup(hook?: (run: () => Promise<void>) => unknown): Cleanup {
  const undos: (() => unknown)[] = []
  const cleanup: Cleanup = {
    add(resource, undo) {
      undos.push(() => undo(resource))
      return resource
    },
    defer(undo) {
      undos.push(undo)
    },
    async run() {
      const errors: unknown[] = []
      for (const undo of undos.splice(0).reverse()) {
        try {
          await undo()
        } catch (error) {
          errors.push(error)
        }
      }
      if (errors.length === 1) throw errors[0]
      if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed`)
    },
  }
  hook?.(() => cleanup.run())
  return cleanup
}
