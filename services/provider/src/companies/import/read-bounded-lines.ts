import { isUtf8 } from 'node:buffer'
import { createReadStream } from 'node:fs'
import { TextDecoder } from 'node:util'

/** One line of an input file (without its `\n`; a `\r` before it is kept), or why it cannot be read. */
export type InputLine = { line: number; bytes: number; text: string } | { line: number; rejected: string }

export interface BoundedLinesOptions {
  /** Longest line, in bytes, before decoding (`--max-line-bytes`); a longer one is rejected, never held. */
  maxLineBytes: number
  /** The files' encoding (`--encoding`, an ASCII-compatible `TextDecoder` label); default UTF-8. */
  encoding?: string
  /** Ends the read (`AbortError`), even of a file that waits for data (a FIFO). */
  signal?: AbortSignal
}

/** `--max-line-bytes`' default, 1 MiB: some 850 times the longest line of the CC0 registers (1,229 bytes). */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024

/**
 * The `TextDecoder` encoding a label names (`latin1` is `windows-1252`, as in every browser), or why it cannot
 * be read line by line: lines are split at the byte `\n`, so the encoding must write ASCII as ASCII (UTF-16
 * does not).
 */
export function readEncoding(label: string): { encoding: string } | { problem: string } {
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(label)
  } catch {
    return {
      problem: `--encoding ${label}: no such encoding (utf-8, windows-1252, iso-8859-2, shift_jis, …)`,
    }
  }
  const ascii = Buffer.from('\n\r;"{}az09', 'latin1')
  if (decoder.decode(ascii) !== ascii.toString('latin1'))
    return { problem: `--encoding ${label}: not ASCII-compatible (lines are split at the byte \\n)` }
  return { encoding: decoder.encoding }
}

/**
 * The lines of a file, streamed in batches (one per chunk read): a line is held only up to `maxLineBytes`
 * (past it, its bytes are skipped to the next `\n` and the line is rejected, however long), and decoded
 * strictly (a byte sequence that is not the encoding rejects its line, never becomes U+FFFD). A UTF-8 BOM
 * is dropped from the first line.
 */
export async function* readBoundedLines(
  path: string,
  { maxLineBytes, encoding = 'utf-8', signal }: BoundedLinesOptions,
): AsyncGenerator<InputLine[]> {
  const decode = lineDecoder(encoding)
  let held: Buffer[] = []
  let heldBytes = 0
  let tooLong = false
  let line = 0
  const finish = (bytes: Buffer): InputLine => {
    line += 1
    const length = heldBytes + bytes.length
    const whole = heldBytes === 0 ? bytes : Buffer.concat([...held, bytes])
    const wasTooLong = tooLong || length > maxLineBytes
    held = []
    heldBytes = 0
    tooLong = false
    if (wasTooLong)
      return { line, rejected: `the line is longer than ${maxLineBytes} bytes (--max-line-bytes)` }
    const text = decode(line === 1 && hasBom(whole) ? whole.subarray(3) : whole)
    return text === undefined
      ? { line, rejected: `not ${encoding === 'utf-8' ? 'UTF-8 (--encoding names another)' : encoding}` }
      : { line, bytes: length, text }
  }
  for await (const chunk of createReadStream(path, {
    signal,
    highWaterMark: 64 * 1024,
  }) as AsyncIterable<Buffer>) {
    const batch: InputLine[] = []
    let start = 0
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      batch.push(finish(chunk.subarray(start, end)))
      start = end + 1
    }
    const rest = chunk.length - start
    if (rest > 0 && !tooLong) {
      if (heldBytes + rest > maxLineBytes) {
        tooLong = true
        held = []
        heldBytes = 0
      } else {
        held.push(chunk.subarray(start))
        heldBytes += rest
      }
    }
    if (batch.length > 0) yield batch
  }
  if (heldBytes > 0 || tooLong) yield [finish(Buffer.alloc(0))]
}

const hasBom = (bytes: Buffer) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf

/** A line's text, or undefined when its bytes are not `encoding`. */
function lineDecoder(encoding: string): (bytes: Buffer) => string | undefined {
  if (encoding === 'utf-8') return (bytes) => (isUtf8(bytes) ? bytes.toString('utf8') : undefined)
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true })
  return (bytes) => {
    try {
      return decoder.decode(bytes)
    } catch {
      return undefined
    }
  }
}
