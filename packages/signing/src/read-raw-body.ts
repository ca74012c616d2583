import type { IncomingMessage, ServerResponse } from 'node:http'
import { BodyReadError, PayloadTooLargeError } from './errors'

export interface ReadRawBodyOptions {
  /** Largest body accepted, in bytes. */
  limit: number
  /** The response: past the limit, its connection is closed after the answer instead of reading the rest. */
  response?: ServerResponse
}

/**
 * The request body as it came, at most `limit` bytes, on plain `node:http` (no framework): a larger
 * `Content-Length` is refused before reading, a longer stream as soon as it passes the limit
 * (`PayloadTooLargeError`); a client that goes away or sends less than it announced is a `BodyReadError`.
 * Nothing is decoded.
 *
 * @example
 * const raw = await readRawBody(req, { limit: 1024 * 1024, response: res })
 */
export function readRawBody(req: IncomingMessage, { limit, response }: ReadRawBodyOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      if (response) response.shouldKeepAlive = false
      req.resume()
      reject(new PayloadTooLargeError(`request body is larger than ${limit} bytes`))
    }
    if (Number(req.headers['content-length']) > limit) return tooLarge()
    const chunks: Buffer[] = []
    let length = 0
    const onData = (chunk: Buffer) => {
      length += chunk.length
      if (length <= limit) chunks.push(chunk)
      else {
        req.off('data', onData)
        tooLarge()
      }
    }
    req.on('data', onData)
    req.once('end', () => {
      if (length <= limit)
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length))
    })
    req.once('error', (cause) => reject(new BodyReadError('request body could not be read', { cause })))
    req.once('aborted', () =>
      reject(new BodyReadError('request body could not be read: the client went away')),
    )
  })
}
