import type { Writable } from 'node:stream'

export interface LogDestinationOptions {
  /** Default `process.stdout`: a pipe, a file or a terminal, as the process was given. */
  stream?: Writable
  /** Log bytes held while the reader is slower than the writer; past this, lines are dropped and counted. */
  maxPendingBytes?: number
}

export interface LogDestination {
  write(line: string): void
  /** Lines dropped so far because the reader stalled or went away. */
  dropped(): number
}

/**
 * Where the kit's logger writes: a destination that never blocks the process and never holds it up on
 * exit. pino's default (sonic-boom) flushes synchronously at exit and retries a full or broken pipe every
 * 100 ms for ever, so a service whose log collector stalls or restarts ignores SIGTERM. Here lines go
 * through Node's own stream (non-blocking for pipes on Linux), whatever is pending at exit is given up,
 * a write error (EPIPE: the reader is gone) stops logging instead of the service, and a stalled reader
 * costs at most `maxPendingBytes` of memory.
 */
export function createLogDestination({
  stream = process.stdout,
  maxPendingBytes = 8 * 1024 * 1024,
}: LogDestinationOptions = {}): LogDestination {
  let broken = false
  let dropped = 0
  let reported = 0
  stream.on('error', () => {
    broken = true
  })
  // Once the reader catches up, one line says how many were lost, so a gap in the logs is never silent.
  stream.on('drain', () => {
    if (broken || dropped === reported) return
    const lost = dropped - reported
    reported = dropped
    stream.write(
      `${JSON.stringify({ level: 40, time: Date.now(), msg: 'log lines dropped: stdout was not read', dropped: lost })}\n`,
    )
  })
  return {
    write(line) {
      if (broken || stream.destroyed || stream.writableLength > maxPendingBytes) {
        dropped += 1
        return
      }
      stream.write(line)
    },
    dropped: () => dropped,
  }
}
