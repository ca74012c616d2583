import { sign } from './sign'
import type { SignableBody } from './signature-scheme'

/**
 * Signs a webhook body with the webhook secret: bare lowercase hex, no prefix.
 *
 * @example
 * signWebhook('whsec_test_secret', rawBody) // 'ae8bcd8a…'
 */
export function signWebhook(secret: string, body: SignableBody): string {
  return sign('webhook', secret, body)
}
