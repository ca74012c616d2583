import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface RawAnswer {
  status: number
  contentType: string
  text: string
}

/**
 * POSTs exact bytes (node:http(s), not fetch, so that an https URL can name its own CA), answering within
 * `timeoutMs` or rejecting with `no answer within … ms`.
 */
export function postRaw(
  url: string,
  body: string,
  headers: Record<string, string>,
  { ca, timeoutMs }: { ca?: string | Buffer; timeoutMs: number },
): Promise<RawAnswer> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(ca ? { ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          })
        })
        res.on('error', reject)
      },
    )
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    req.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    req.end(body)
  })
}
