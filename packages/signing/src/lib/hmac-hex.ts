import { createHmac } from 'node:crypto'
import type { SignableBody } from '../signature-scheme'

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('[@pf/signing] secret must be a non-empty string')
  }
}

export function assertBody(body: unknown): asserts body is SignableBody {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('[@pf/signing] body must be a string, Buffer or Uint8Array')
  }
}

/** Lowercase hex HMAC-SHA256. Buffers are hashed as they are, never decoded, so a BOM or bad UTF-8 is kept. */
export function hmacHex(secret: string, body: SignableBody): string {
  assertSecret(secret)
  assertBody(body)
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')
}
