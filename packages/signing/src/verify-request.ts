import type { IncomingHttpHeaders } from 'node:http'
import { SIGNATURE_HEADER } from './constants'
import { SignatureMismatchError } from './errors'
import { findMatchingSecret } from './find-matching-secret'
import type { SignatureScheme } from './signature-scheme'

export interface VerifyRequestInput {
  /** The exact bytes of the body, as read (`readRawBody`). */
  raw: Uint8Array
  /** The request's headers, names in lower case (Node's `req.headers`). */
  headers: IncomingHttpHeaders
  /** Candidate secrets, current first; more than one during a rotation. */
  secrets: readonly string[]
  /** Default `'webhook'` (bare hex); `'callback'` for `sha256=<hex>`. */
  scheme?: SignatureScheme
}

/** A body whose `X-PF-Signature` one of the secrets made, or why not. */
export type VerifyRequestResult<Body extends Uint8Array = Uint8Array> =
  { ok: true; raw: Body; secretIndex: number } | { ok: false; refusal: SignatureMismatchError }

const SIGNATURE = SIGNATURE_HEADER.toLowerCase()

/**
 * The one check of a signed request, free of any framework: `X-PF-Signature` against the raw bytes with every
 * secret, in constant time. A missing header or a signature no secret made is a refusal (returned, never
 * thrown); `secretIndex` says which secret matched (0 the current one). Throws `TypeError` only for misuse.
 *
 * @example
 * const verified = verifyRequest({ raw, headers: req.headers, secrets: [current, previous] })
 * if (!verified.ok) throw verified.refusal
 */
export function verifyRequest<Body extends Uint8Array>({
  raw,
  headers,
  secrets,
  scheme = 'webhook',
}: VerifyRequestInput & { raw: Body }): VerifyRequestResult<Body> {
  const signature = headers[SIGNATURE]
  if (typeof signature !== 'string') {
    // Misuse is still a TypeError, header or not.
    findMatchingSecret({ scheme, secrets, body: raw, signature: undefined })
    return { ok: false, refusal: new SignatureMismatchError(`missing ${SIGNATURE_HEADER} header`) }
  }
  const secretIndex = findMatchingSecret({ scheme, secrets, body: raw, signature })
  if (secretIndex === -1)
    return { ok: false, refusal: new SignatureMismatchError(`invalid ${SIGNATURE_HEADER} signature`) }
  return { ok: true, raw, secretIndex }
}
