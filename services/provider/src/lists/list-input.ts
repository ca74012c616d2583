import { createHash, type Hash } from 'node:crypto'
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs'
import { DETECT_BYTES } from '../datasets/detect-list-format'

/** The error of a list file past `SANCTIONS_MAX_BYTES`. */
export const tooLarge = (shown: string, maxBytes: number) =>
  new Error(`${shown} is larger than ${maxBytes} bytes (SANCTIONS_MAX_BYTES)`)

/**
 * A list file to read, from disk or already downloaded: streamed (`chunks`) or whole (`read`), its SHA-256
 * taken from the very bytes parsed.
 */
export interface ListInput {
  /** As errors and `/api/lists` show it: a path, or a URL without its secrets. */
  shown: string
  /** Its file name (the last segment of the path or URL path). */
  fileName: string
  /** The file on disk, when it is one. */
  path?: string
  /** Its first bytes, for `detectListFormat`. */
  head(): Buffer
  /** Its bytes as a stream, hashed as they pass. */
  chunks(): AsyncIterable<Uint8Array>
  /** Its bytes whole, hashed. */
  read(): Promise<Buffer>
  /** The SHA-256 (hex) of what `chunks` or `read` gave. */
  sha256(): string
  /** The most bytes a file read for it may hold (`SANCTIONS_MAX_BYTES`): its own, its OFAC set's, its deltas. */
  maxBytes: number
}

/** `source` hashed as it passes, and stopped as soon as it passes `maxBytes` (a file that grows, a FIFO). */
async function* hashed(
  source: AsyncIterable<Uint8Array>,
  hash: Hash,
  limit: { shown: string; maxBytes: number },
): AsyncGenerator<Uint8Array> {
  let total = 0
  for await (const chunk of source) {
    total += chunk.byteLength
    if (total > limit.maxBytes) throw tooLarge(limit.shown, limit.maxBytes)
    hash.update(chunk)
    yield chunk
  }
}

/** A list file on disk, read at most `maxBytes` long. */
export function fileInput(path: string, fileName: string, maxBytes: number): ListInput {
  let hash = createHash('sha256')
  let digest: string | undefined
  return {
    shown: path,
    fileName,
    path,
    head() {
      const fd = openSync(path, 'r')
      try {
        const buffer = Buffer.alloc(DETECT_BYTES)
        return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0))
      } finally {
        closeSync(fd)
      }
    },
    chunks() {
      hash = createHash('sha256')
      digest = undefined
      // A regular file's size refuses it before a byte is read; the count, what it holds by the time it is read.
      if (statSync(path).size > maxBytes) throw tooLarge(path, maxBytes)
      return hashed(createReadStream(path, { highWaterMark: 1024 * 1024 }), hash, { shown: path, maxBytes })
    },
    async read() {
      const parts: Uint8Array[] = []
      for await (const chunk of this.chunks()) parts.push(chunk)
      return Buffer.concat(parts)
    },
    sha256: () => (digest ??= hash.digest('hex')),
    maxBytes,
  }
}

/** A list file already in memory (downloaded within `maxBytes`). */
export function bytesInput(bytes: Buffer, shown: string, fileName: string, maxBytes: number): ListInput {
  const digest = createHash('sha256').update(bytes).digest('hex')
  return {
    shown,
    fileName,
    head: () => bytes.subarray(0, DETECT_BYTES),
    async *chunks() {
      yield bytes
    },
    read: async () => bytes,
    sha256: () => digest,
    maxBytes,
  }
}
