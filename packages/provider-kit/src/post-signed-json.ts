import type { Readable } from 'node:stream'
import { SIGNATURE_HEADER, signCallback } from '@pf/signing'
import { checkOutboundUrl } from './check-outbound-url'
import type { OutboundClient } from './create-outbound-client'

export interface SignedPostOptions {
  /** The outbound client (`createOutboundClient`): no redirects, host names resolving to private addresses refused. */
  http: OutboundClient
  allowPrivate: boolean
  allowedPorts?: readonly number[]
  /** Longest the POST may take until its answer's status line and headers. */
  timeoutMs: number
}

/**
 * POSTs JSON bytes signed exactly as status callbacks are (`X-PF-Signature: sha256=<hex>`, HMAC-SHA256 of those
 * bytes keyed by `token`), for a host's own signed POSTs (the provider's watch alerts). The outbound-safety
 * check runs first, at every call (`OutboundUrlError` naming `what`); the answer's body is never read, its
 * stream destroyed at the headers. Resolves with the HTTP status; a network failure or time-out rejects.
 *
 * @example
 * const status = await postSignedJson(watch.alertUrl, body, watch.alertToken, { what: 'alertUrl', http, allowPrivate: false, timeoutMs: 10_000 })
 */
export async function postSignedJson(
  url: string,
  body: Uint8Array,
  token: string,
  { what, http, allowPrivate, allowedPorts, timeoutMs }: SignedPostOptions & { what: string },
): Promise<number> {
  const checked = checkOutboundUrl(url, what, { allowPrivate, allowedPorts })
  const response = await http.post<Readable>(checked.href, body, {
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signCallback(token, body) },
    responseType: 'stream',
    timeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  })
  response.data.destroy()
  return response.status
}
