export interface BackgroundLoop {
  start(): void
  /** Runs a round now instead of at the next interval; during a round, another straight after it. */
  wake(): void
  /** Ends the sleep, or waits for the round in hand, and runs no more. */
  stop(): Promise<void>
  readonly stopping: boolean
}

/**
 * The loop of a replica's background work (the subject screener, the list re-screener): `round` at start, then
 * again every `intervalMs` or at once when woken. A wake during a round runs another right after it, since what
 * it was woken for may have come after the round looked. `round` handles its own errors (it logs them and leaves
 * the work for the next round).
 */
export function backgroundLoop(intervalMs: number, round: () => Promise<void>): BackgroundLoop {
  let stopping = false
  let again = false
  let timer: NodeJS.Timeout | undefined
  let wakeUp: (() => void) | undefined
  let loop: Promise<void> | undefined
  const sleep = () =>
    new Promise<void>((resolve) => {
      wakeUp = resolve
      timer = setTimeout(resolve, intervalMs)
    }).finally(() => {
      clearTimeout(timer)
      wakeUp = undefined
    })
  const run = async () => {
    while (!stopping) {
      again = false
      await round()
      if (!stopping && !again) await sleep()
    }
  }
  return {
    start() {
      loop ??= run()
    },
    wake() {
      again = true
      wakeUp?.()
    },
    async stop() {
      stopping = true
      wakeUp?.()
      await loop
    },
    get stopping() {
      return stopping
    },
  }
}
