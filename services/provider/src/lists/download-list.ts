import { redactUrl } from '@pf/service-kit'

/**
 * Fetches a list. Credentials in the URL (`https://user:pw@host/…`) go in a Basic `Authorization` header
 * (fetch refuses them in the URL); errors name the URL as `redactUrl` shows it, never its secrets.
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
  let response: Response
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' })
  } catch (error) {
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message
    throw new Error(`${shown} could not be fetched: ${reason}`)
  }
  if (!response.ok) throw new Error(`${shown} answered ${response.status}`)
  const declared = Number(response.headers.get('content-length'))
  if (declared > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes`)
  const bytes = Buffer.from(await response.arrayBuffer())
  if (bytes.length > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes`)
  return bytes
}
