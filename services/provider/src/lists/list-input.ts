import { createHash, type Hash } from 'node:crypto'
import { closeSync, createReadStream, openSync, readSync } from 'node:fs'
import { DETECT_BYTES } from '../datasets/detect-list-format'

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
}

async function* hashed(source: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    hash.update(chunk)
    yield chunk
  }
}

/** A list file on disk. */
export function fileInput(path: string, fileName: string): ListInput {
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
      return hashed(createReadStream(path, { highWaterMark: 1024 * 1024 }), hash)
    },
    async read() {
      const parts: Uint8Array[] = []
      for await (const chunk of this.chunks()) parts.push(chunk)
      return Buffer.concat(parts)
    },
    sha256: () => (digest ??= hash.digest('hex')),
  }
}

/** A list file already in memory (downloaded). */
export function bytesInput(bytes: Buffer, shown: string, fileName: string): ListInput {
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
  }
}
