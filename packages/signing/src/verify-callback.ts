import { findMatchingSecret } from './find-matching-secret'
import type { SignableBody } from './signature-scheme'

export interface VerifyOptions {
  /** Older secrets still accepted during a rotation. */
  additionalSecrets?: readonly string[]
}

/**
 * Checks a callback's `X-PF-Signature` (`sha256=<hex>`) against the exact body bytes.
 * Returns `false` on any mismatch, including a missing header; throws `TypeError` only for misuse.
 *
 * @example
 * verifyCallback(callbackToken, rawBody, req.headers['x-pf-signature'])
 */
export function verifyCallback(
  callbackToken: string,
  body: SignableBody,
  signature: string | undefined | null,
  { additionalSecrets = [] }: VerifyOptions = {},
): boolean {
  const secrets = [callbackToken, ...additionalSecrets]
  return findMatchingSecret({ scheme: 'callback', secrets, body, signature }) !== -1
}
