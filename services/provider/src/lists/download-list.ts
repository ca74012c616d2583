import { redactUrl } from '@pf/service-kit'
import { tooLarge } from './list-input'

/**
 * Fetches a list, counting its bytes as they arrive, after decompression (fetch decodes `Content-Encoding`), and
 * closing the connection as soon as they pass `maxBytes`: a chunked body of gigabytes, or a gzip bomb, never
 * holds more than the limit. Credentials in the URL (`https://user:pw@host/…`) go in a Basic `Authorization`
 * header (fetch refuses them in the URL); errors name the URL as `redactUrl` shows it, never its secrets.
 */
export async function downloadList(
  source: string,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
): Promise<Buffer> {
  const url = new URL(source)
  const shown = redactUrl(source)
  const headers: Record<string, string> = {}
  if (url.username || url.password) {
    const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.authorization = `Basic ${Buffer.from(userinfo).toString('base64')}`
    url.username = ''
    url.password = ''
  }
  const done = new AbortController()
  const signal = AbortSignal.any([done.signal, AbortSignal.timeout(timeoutMs)])
  const failed = (error: unknown) => {
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message
    return new Error(`${shown} could not be fetched: ${reason}`)
  }
  try {
    let response: Response
    try {
      response = await fetch(url, { headers, signal, redirect: 'follow' })
    } catch (error) {
      throw failed(error)
    }
    if (!response.ok) throw new Error(`${shown} answered ${response.status}`)
    // A declared length is of the bytes as sent: it tells the size only when they are not encoded.
    const declared = Number(response.headers.get('content-length'))
    if (!response.headers.has('content-encoding') && declared > maxBytes) throw tooLarge(shown, maxBytes)
    const parts: Uint8Array[] = []
    let total = 0
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    for (;;) {
      const read = await reader.read().catch((error: unknown) => {
        throw failed(error)
      })
      if (read.done) return Buffer.concat(parts, total)
      total += read.value.byteLength
      if (total > maxBytes) throw tooLarge(shown, maxBytes)
      parts.push(read.value)
    }
  } finally {
    // Closes the connection of a body not read to its end (past the limit, an error status); after a whole
    // body, does nothing.
    done.abort()
  }
}
