import { CALLBACK_SIGNATURE_PREFIX } from './constants'
import { hmacHex } from './lib/hmac-hex'
import type { SignableBody, SignatureScheme } from './signature-scheme'

/**
 * The `X-PF-Signature` header value for a body, in either scheme.
 *
 * @example
 * sign('callback', 'cb-token-1', body) // 'sha256=c143…'
 * sign('webhook', 'whsec_…', rawBody)  // 'ae8b…'
 */
export function sign(scheme: SignatureScheme, secret: string, body: SignableBody): string {
  const hex = hmacHex(secret, body)
  return scheme === 'callback' ? CALLBACK_SIGNATURE_PREFIX + hex : hex
}
