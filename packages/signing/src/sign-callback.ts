import { sign } from './sign'
import type { SignableBody } from './signature-scheme'

/**
 * Signs a status callback body with the envelope's `callbackToken`: `sha256=<lowercase hex>`.
 *
 * @example
 * const body = JSON.stringify(payload)
 * await fetch(callbackUrl, { method: 'POST', body, headers: { [SIGNATURE_HEADER]: signCallback(token, body) } })
 */
export function signCallback(callbackToken: string, body: SignableBody): string {
  return sign('callback', callbackToken, body)
}
