import { findMatchingSecret } from './find-matching-secret'
import type { SignableBody } from './signature-scheme'
import type { VerifyOptions } from './verify-callback'

/**
 * Checks a webhook's `X-PF-Signature` (bare lowercase hex, no prefix) against the exact body bytes.
 * Returns `false` on any mismatch, including a missing header or a `sha256=` prefix; throws `TypeError` only
 * for misuse.
 *
 * @example
 * verifyWebhook(secret, rawBody, signature, { additionalSecrets: [previousSecret] })
 */
export function verifyWebhook(
  secret: string,
  body: SignableBody,
  signature: string | undefined | null,
  { additionalSecrets = [] }: VerifyOptions = {},
): boolean {
  const secrets = [secret, ...additionalSecrets]
  return findMatchingSecret({ scheme: 'webhook', secrets, body, signature }) !== -1
}
