import { timingSafeEqual } from 'node:crypto'
import { assertBody, assertSecret } from './lib/hmac-hex'
import { sign } from './sign'
import type { SignableBody, SignatureScheme } from './signature-scheme'

export interface FindMatchingSecretOptions {
  scheme: SignatureScheme
  /** Candidate secrets, current first; more than one during a rotation. */
  secrets: readonly string[]
  body: SignableBody
  /** The received header value; `undefined` (header missing) never matches. */
  signature: string | undefined | null
}

/**
 * Which secret signed this body: its index in `secrets`, or -1 when none did.
 * Each comparison is constant time; throws `TypeError` only for misuse (no secret, no body).
 *
 * @example
 * const index = findMatchingSecret({ scheme: 'webhook', secrets: [current, previous], body, signature })
 * if (index === 1) log.info('sender still signs with the previous secret')
 */
export function findMatchingSecret({ scheme, secrets, body, signature }: FindMatchingSecretOptions): number {
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError('[@pf/signing] at least one secret is required')
  }
  secrets.forEach(assertSecret)
  assertBody(body)
  if (typeof signature !== 'string') return -1
  const received = Buffer.from(signature, 'utf8')
  let match = -1
  secrets.forEach((secret, index) => {
    const expected = Buffer.from(sign(scheme, secret, body), 'utf8')
    // timingSafeEqual throws on different lengths; a length mismatch is a plain mismatch and reveals nothing
    // the attacker does not already know (the expected length is public).
    if (match === -1 && received.length === expected.length && timingSafeEqual(received, expected))
      match = index
  })
  return match
}
